/** mysql2 / Node error codes meaning "the database cannot be reached right now". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_LOCK_DEADLOCK',
]);

/** The error and the errors it wraps (drizzle wraps driver errors in `cause`). */
function* causeChain(error: unknown): Generator<{ code?: unknown; fatal?: unknown; message?: unknown }> {
  let current = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    yield current as { code?: unknown; fatal?: unknown; message?: unknown };
    current = (current as { cause?: unknown }).cause;
  }
}

/** True when `error`, or an error it wraps, carries the driver error `code`. */
export function hasErrorCode(error: unknown, code: string): boolean {
  for (const link of causeChain(error)) if (link.code === code) return true;
  return false;
}

/**
 * True when `error` says the database is unreachable or overloaded: the caller should
 * retry later (HTTP 503), not see a bug.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const link of causeChain(error)) {
    if (typeof link.code === 'string' && UNAVAILABLE_CODES.has(link.code)) return true;
    if (link.fatal === true) return true;
  }
  return false;
}

/** True when `error` is a duplicate-key violation (for "already exists" answers); of the unique index `key`, when given. */
export function isDuplicateKey(error: unknown, key?: string): boolean {
  for (const link of causeChain(error)) {
    // The server names the index: "Duplicate entry '…' for key '<table>.<key>'" (or '<key>').
    if (link.code === 'ER_DUP_ENTRY') return key === undefined || (typeof link.message === 'string' && new RegExp(`for key '(\\w+\\.)?${key}'`).test(link.message));
  }
  return false;
}
