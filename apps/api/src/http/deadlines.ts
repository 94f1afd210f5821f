import type { MiddlewareHandler } from 'hono';
import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors';
import type { AppEnv } from './env';
import { unavailable } from './errors';

export interface Deadlines {
  /** The whole request, answer included (REQUEST_TIMEOUT_MS). */
  requestMs: number;
  /** Receiving the request body (BODY_READ_TIMEOUT_MS); none for bodiless routes. */
  bodyReadMs?: number;
}

/** The body has not all arrived yet. */
const bodyPending = (incoming: IncomingMessage) => !incoming.complete;

/**
 * The missing bytes are the client's to send. Below the high-water mark Node keeps reading
 * the socket, so nothing more has come; at it, we are the slow reader (say, a handler
 * waiting on the database before it reads the body), and the wait is not the client's.
 */
const awaitingClient = (incoming: IncomingMessage) => bodyPending(incoming) && incoming.readableLength < incoming.readableHighWaterMark;

/**
 * 408, not 503: the server is not overloaded, the client did not send its request in time
 * (RFC 9110 §15.5.9), and the request was not acted on (its body was never complete), so
 * a client may send it again. The connection is closed: the rest of the body would
 * otherwise be read as the next request.
 */
const bodyTooSlow = (ms: number) =>
  new AppError('request_timeout', `The request body did not arrive within ${ms} ms`, { bodyUnread: true });

function requestTooSlow(ms: number, incoming: IncomingMessage | undefined): AppError {
  if (incoming && awaitingClient(incoming)) return bodyTooSlow(ms);
  const error = unavailable(`The request did not complete within ${ms} ms; retry shortly`);
  if (!incoming || !bodyPending(incoming)) return error;
  // An unread rest of the body must not be parsed as the next request.
  return new AppError(error.code, error.detail, { ...error.details, bodyUnread: true });
}

/**
 * Answers a request that has not finished `requestMs` after its arrival (a database that
 * accepts connections but no longer answers) with 503,
 * and one whose body has not arrived in `bodyReadMs` (a stalled or trickling client) with
 * 408 and a closed connection, instead of holding the client — and the body budget — for
 * as long as it likes. The handler still running is not interrupted; the budget is
 * returned at the answer (see bodyBudget).
 */
export function requestDeadlines({ requestMs, bodyReadMs }: Deadlines): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.env?.incoming;
    const timers: NodeJS.Timeout[] = [];
    const deadline = new Promise<never>((_, reject) => {
      timers.push(setTimeout(() => reject(requestTooSlow(requestMs, incoming)), requestMs));
      if (incoming && bodyReadMs !== undefined && bodyPending(incoming)) {
        timers.push(
          setTimeout(() => {
            if (awaitingClient(incoming)) reject(bodyTooSlow(bodyReadMs));
          }, bodyReadMs),
        );
      }
    });
    try {
      await Promise.race([next(), deadline]);
    } finally {
      for (const timer of timers) clearTimeout(timer);
    }
  };
}
