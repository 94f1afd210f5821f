import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors';
import type { AppEnv } from './env';

/** The largest body a route takes, by request path. */
export type MaxBodyFor = (path: string) => number;

/** The body size a request declares (Content-Length, no Transfer-Encoding), or undefined. */
function declaredLength(c: Context<AppEnv>): number | undefined {
  const length = c.req.header('content-length');
  return length !== undefined && c.req.header('transfer-encoding') === undefined ? Number(length) || 0 : undefined;
}

/** A body is still to arrive after the head: chunked, or a Content-Length above 0 (a search, a list: none). */
export const hasBody = (req: IncomingMessage) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0;

const bodiless = (c: Context<AppEnv>) => c.req.method === 'GET' || c.req.method === 'HEAD';

/**
 * Refuses a body over its route's limit with 413. A declared length is checked from the
 * header alone: asking for the body stream (as hono's bodyLimit does) makes the Node
 * adapter build a full Request for every request, bodiless GETs included, and read the
 * body through a web stream. Only chunked bodies are counted as they stream in — and
 * held whole by hono's bodyLimit, so a route that reads its body as a stream
 * (`countsItsOwn`, an import) counts a chunked body itself instead.
 */
export function limitBodies(maxBodyFor: MaxBodyFor, countsItsOwn: (path: string) => boolean = () => false): MiddlewareHandler<AppEnv> {
  const tooLarge = (maxSize: number) => {
    // The rest of the body is never read: close the connection rather than leave the
    // client's unsent bytes to be parsed as its next request.
    throw new AppError('payload_too_large', `The request body is larger than ${maxSize} bytes`, { bodyUnread: true });
  };
  const streamed = new Map<number, MiddlewareHandler>();
  return async (c, next) => {
    const maxSize = maxBodyFor(c.req.path);
    const length = declaredLength(c);
    if (length !== undefined) return length > maxSize ? tooLarge(maxSize) : next();
    if (bodiless(c) || countsItsOwn(c.req.path)) return next();
    let limit = streamed.get(maxSize);
    if (!limit) streamed.set(maxSize, (limit = bodyLimit({ maxSize, onError: () => tooLarge(maxSize) })));
    return limit(c, next);
  };
}

/**
 * Bounds the request bodies the process works on at once. Each body is bounded by its
 * route's limit, but nothing else stops a few hundred concurrent 8 MiB batches from
 * exhausting the heap. A request is counted from before its body is read until its
 * answer or the end of its connection, by its declared Content-Length (a chunked body by
 * its route's limit; a streamed body by what its route holds at once, `heldAtOnce`). One
 * that would take the total over `maxBytes` gets 503 with
 * Retry-After without its body being read; a single request is always let in, whatever
 * its size. Requests the MCP bridge makes in-process are counted once, as the /mcp
 * request that carries them (app.ts runs this over HTTP only).
 */
export function bodyBudget(maxBytes: number, maxBodyFor: MaxBodyFor, heldAtOnce: (path: string) => number | null = () => null): MiddlewareHandler<AppEnv> {
  let held = 0;
  return async (c, next) => {
    if (bodiless(c)) return next();
    // A route that reads its body as a stream holds only a part of it at a time.
    const size = Math.min(declaredLength(c) ?? maxBodyFor(c.req.path), heldAtOnce(c.req.path) ?? Infinity);
    if (size === 0) return next();
    if (held > 0 && held + size > maxBytes) {
      // The body is never read: close the connection rather than parse it as a request.
      throw new AppError('unavailable', 'The server is busy with other requests’ bodies; retry shortly', { retryAfterSeconds: 1, bodyUnread: true });
    }
    held += size;
    let returned = false;
    const giveBack = () => {
      if (returned) return;
      returned = true;
      held -= size;
    };
    // The request is over for this budget at whichever comes first: its answer is sent or
    // its connection is gone ('close' covers both), or the handler is done. A deadline
    // answers while the handler may still be waiting on a body that never comes.
    c.env?.outgoing?.once('close', giveBack);
    try {
      await next();
    } finally {
      giveBack();
      c.env?.outgoing?.off('close', giveBack);
    }
  };
}
