import { pino, type Logger } from 'pino';
import type { Config } from './config';

/**
 * JSON lines on stdout. We log request metadata and errors, never credentials or the
 * text people store; the redact paths are a second line of defence.
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  return pino({
    level: config.LOG_LEVEL,
    base: { service: 'memory-bank' },
    redact: {
      paths: ['authorization', 'headers.authorization', '*.authorization', 'key', 'token', 'content', 'payload'],
      censor: '[REDACTED]',
    },
  });
}
