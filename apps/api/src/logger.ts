import { pino, type Logger } from 'pino';
import type { Config } from './config';

/**
 * JSON lines on stdout. We log request metadata and errors, never credentials or the
 * text people store; the redact paths are a second line of defence.
 *
 * Written asynchronously: lines logged while a write is under way go out together in the
 * next one, so a busy server makes one write per batch of lines rather than one per
 * request (a synchronous write per access-log line cost ~4 % of the service's CPU under
 * load). pino flushes what is left when the process exits; a kill -9 can lose the lines
 * of the write in progress.
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  return pino(
    {
      level: config.LOG_LEVEL,
      base: { service: 'memory-bank' },
      redact: {
        paths: ['authorization', 'headers.authorization', '*.authorization', 'key', 'token', 'content', 'payload'],
        censor: '[REDACTED]',
      },
    },
    pino.destination({ dest: 1, sync: false }),
  );
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
