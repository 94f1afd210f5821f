import type { MiddlewareHandler } from 'hono';
import { AppError } from '../errors';
import type { AppEnv } from '../http/env';
import { bearerToken, matchesSecret } from './bearer';

/**
 * Operator routes exist only when MEMORY_BANK_OPERATOR_TOKEN is set: otherwise they
 * answer exactly like an unknown route. API keys never open them.
 */
export function requireOperator(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const expected = c.get('config').MEMORY_BANK_OPERATOR_TOKEN;
    if (!expected) throw routeNotFound();
    if (!matchesSecret(bearerToken(c.req.header('authorization')), expected)) {
      throw new AppError('unauthorized', 'This operation needs the operator token');
    }
    await next();
  };
}

/** The 404 of a path the service does not serve. */
export function routeNotFound(): AppError {
  return new AppError('not_found', 'No such route');
}
