import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../errors';
import type { AppEnv } from '../http/env';
import { bearerToken } from './bearer';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time comparison of a presented token with the configured one. */
function sameToken(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * Operator routes exist only when MEMORY_BANK_OPERATOR_TOKEN is set: otherwise they
 * answer exactly like an unknown route. API keys never open them.
 */
export function requireOperator(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const expected = c.get('config').MEMORY_BANK_OPERATOR_TOKEN;
    if (!expected) throw routeNotFound();
    const token = bearerToken(c.req.header('authorization'));
    if (!token || !sameToken(token, expected)) {
      throw new AppError('unauthorized', 'This operation needs the operator token');
    }
    await next();
  };
}

/** The 404 of a path the service does not serve. */
export function routeNotFound(): AppError {
  return new AppError('not_found', 'No such route');
}
