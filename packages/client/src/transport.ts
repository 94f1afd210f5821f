import { errorFromResponse, retryAfterSeconds } from './errors.js';

/** An API key, or a function that answers the current access token (e.g. from an OIDC library), called per attempt. */
export type TokenSource = string | (() => string | null | undefined | Promise<string | null | undefined>);

export interface RetryOptions {
  /** Attempts in all, the first included (default 3; 1 = never retry). */
  attempts?: number;
  /** The longest wait before a retry; an answer asking for longer is not retried (default 30 000 ms). */
  maxDelayMs?: number;
  /** The wait when the answer names none, doubled per attempt (default 500 ms). */
  baseDelayMs?: number;
}

export interface RetryEvent {
  attempt: number;
  status: number;
  delayMs: number;
  method: string;
  url: string;
}

export interface TransportOptions {
  token?: TokenSource;
  retry?: RetryOptions;
  /** Default: `globalThis.fetch` (looked up per request). */
  fetch?: (request: Request) => Promise<Response>;
  /** Told before each retry (for logs or metrics). */
  onRetry?: (event: RetryEvent) => void;
}

/** Sends one logical call (with its retries); answers its 2xx/3xx response or throws MemoryBankError. */
export type Send = (request: Request, options?: { retry?: boolean }) => Promise<Response>;

/** Methods that change nothing more when repeated: a 503 may be retried. */
const REPEATABLE = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', abort, { once: true });
  });
}

/**
 * A 429 is always safe to retry (the rate limiter refuses before anything runs); a 503 only
 * when repeating the request cannot write twice: a repeatable method, or an Idempotency-Key.
 */
function mayRetry(request: Request, status: number): boolean {
  if (status === 429) return true;
  return status === 503 && (REPEATABLE.has(request.method) || request.headers.has('idempotency-key'));
}

export async function bearerToken(token: TokenSource | undefined): Promise<string | null> {
  if (token === undefined) return null;
  return (typeof token === 'string' ? token : await token()) ?? null;
}

export function createTransport(options: TransportOptions = {}): Send {
  const attempts = Math.max(1, options.retry?.attempts ?? 3);
  const maxDelayMs = options.retry?.maxDelayMs ?? 30_000;
  const baseDelayMs = options.retry?.baseDelayMs ?? 500;
  const fetchOne = options.fetch ?? ((request: Request) => globalThis.fetch(request));

  return async (request, { retry = true } = {}) => {
    const allowed = retry ? attempts : 1;
    for (let attempt = 1; ; attempt++) {
      // The body is sent from a copy, so the original is still there for a retry.
      const sent = attempt < allowed ? request.clone() : request;
      const token = await bearerToken(options.token);
      if (token !== null) sent.headers.set('authorization', `Bearer ${token}`);
      const response = await fetchOne(sent);
      if (response.ok || (response.status >= 300 && response.status < 400)) return response;
      const asked = retryAfterSeconds(response.headers.get('retry-after'));
      const delayMs = asked !== undefined ? asked * 1000 : baseDelayMs * 2 ** (attempt - 1);
      if (attempt >= allowed || !mayRetry(request, response.status) || delayMs > maxDelayMs) throw await errorFromResponse(response);
      await response.body?.cancel();
      options.onRetry?.({ attempt, status: response.status, delayMs, method: request.method, url: request.url });
      await wait(delayMs, request.signal);
    }
  };
}
