import { pino, type Logger } from 'pino';
import type { Config } from './config';

/** How long a log line may wait in the buffer before it is written (LOG_BUFFER_BYTES fills it sooner). */
export const LOG_FLUSH_MS = 1000;
/** Lines are written once this much is buffered, or after LOG_FLUSH_MS. */
const LOG_BUFFER_BYTES = 4096;
/** While stdout is not being read, lines beyond this much waiting are dropped (memory stays bounded, requests never wait on logs). */
const LOG_BACKLOG_MAX_BYTES = 8 * 1024 * 1024;
/** Each logger createLogger made, with its buffered destination (for flushLogsSync). */
const destinations = new WeakMap<Logger, ReturnType<typeof pino.destination>>();

/**
 * JSON lines on stdout. We log request metadata and errors, never credentials or the
 * text people store; the redact paths are a second line of defence.
 *
 * Buffered: lines go out 4 KiB at a time, or at most LOG_FLUSH_MS after they were logged,
 * so a busy server makes one write per few dozen access-log lines instead of one per
 * request (a system call per line is a visible share of the CPU under load). pino writes what is left when
 * the process exits; a kill -9 loses at most the last second's lines.
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  const destination = pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES, maxLength: LOG_BACKLOG_MAX_BYTES });
  const flusher = setInterval(() => destination.flush(), LOG_FLUSH_MS).unref();
  destination.once('close', () => clearInterval(flusher));
  const logger = pino(
    {
      level: config.LOG_LEVEL,
      base: { service: 'memory-bank' },
      redact: {
        paths: ['authorization', 'headers.authorization', '*.authorization', 'key', 'token', 'content', 'payload'],
        censor: '[REDACTED]',
      },
    },
    destination,
  );
  destinations.set(logger, destination);
  return logger;
}

/**
 * Writes what `logger` has buffered now, before the call returns: start-up lines are out
 * before the banner on stderr says the server is listening, and "shutting down" as soon as
 * a signal arrives.
 */
export function flushLogsSync(logger: Logger): void {
  try {
    destinations.get(logger)?.flushSync();
  } catch {
    // A stdout nobody reads any more (EPIPE) must not stop the server; the lines stay queued.
  }
}

/**
 * An error as it may be logged: names, codes and messages along its cause chain, never
 * the query parameters drizzle puts in its messages (they hold what people store) nor
 * anything else attached to the error.
 */
export function errorForLog(error: unknown): Record<string, unknown>[] {
  const chain: Record<string, unknown>[] = [];
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (!(current instanceof Error)) {
      chain.push({ value: typeof current });
      break;
    }
    const { code, errno, sqlState } = current as { code?: unknown; errno?: unknown; sqlState?: unknown };
    const message = 'params' in current && 'query' in current ? `failed query: ${String((current as { query: unknown }).query).slice(0, 300)}` : current.message;
    chain.push({ name: current.name, message: message.slice(0, 500), ...(code ? { code } : {}), ...(errno ? { errno } : {}), ...(sqlState ? { sqlState } : {}) });
    current = current.cause;
  }
  return chain;
}

/**
 * A warning for an outage, logged with its error at most once per `everyMs` (a dependency
 * that is away would otherwise log once per request).
 */
export function throttledWarning(logger: Logger, message: string, everyMs: number): (error: unknown) => void {
  let warnedAt = -Infinity;
  return (error) => {
    const at = performance.now();
    if (at - warnedAt < everyMs) return;
    warnedAt = at;
    logger.warn({ error: errorForLog(error) }, message);
  };
}
