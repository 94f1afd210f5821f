import { isId, type IdKind } from '@memory-bank/db';
import { AppError } from '../errors';

/** Cursors are opaque to clients: base64url of a small versioned JSON object. */
export function encodeCursor(payload: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ v: 1, ...payload })).toString('base64url');
}

/** Reads a cursor this API issued; anything else is a 400 naming `cursor`. */
export function decodeCursor<T>(cursor: string, read: (payload: Record<string, unknown>) => T | null): T {
  try {
    const payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (payload && typeof payload === 'object' && (payload as { v?: unknown }).v === 1) {
      const value = read(payload as Record<string, unknown>);
      if (value !== null) return value;
    }
  } catch {
    // not one of ours
  }
  throw new AppError('validation_failed', 'cursor is not a cursor this API returned', { errors: [{ path: 'cursor', message: 'Invalid cursor' }] });
}

/** The common case: "continue before this id" (ids sort by creation). */
export const beforeIdCursor = {
  encode: (lastId: string) => encodeCursor({ before: lastId }),
  decode: (cursor: string, kind: IdKind) =>
    decodeCursor(cursor, (payload) => (typeof payload.before === 'string' && isId(kind, payload.before) ? payload.before : null)),
};
