import type { ApiKeyScope } from '@memory-bank/db';
import type { Context, MiddlewareHandler } from 'hono';
import { AppError } from '../errors';
import type { AppEnv } from '../http/env';
import type { Principal } from './principal';

export const REALM = 'memory-bank';

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer[ ]+([^\s]+)\s*$/i);
  return match?.[1] ?? null;
}

function unauthorized(detail: string, error?: 'invalid_token'): AppError {
  const challenge = error ? `Bearer realm="${REALM}", error="${error}"` : `Bearer realm="${REALM}"`;
  return new AppError('unauthorized', detail, { headers: { 'WWW-Authenticate': challenge } });
}

async function authenticate(c: Context<AppEnv>): Promise<Principal> {
  const token = bearerToken(c.req.header('authorization'));
  if (!token) throw unauthorized('This operation needs an API key: Authorization: Bearer mbk_…');
  const principal = await c.var.services.apiKeys.authenticate(token);
  if (!principal) throw unauthorized('The API key is unknown or revoked', 'invalid_token');
  return principal;
}

/**
 * Authenticates the bearer API key and checks that it carries every scope in
 * `scopes`; sets `principal`. 401 for missing/unknown/revoked keys, 403 for scopes.
 */
export function requireScopes(scopes: readonly ApiKeyScope[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = c.env?.principal ?? (await authenticate(c));
    const missing = scopes.filter((scope) => !principal.scopes.includes(scope));
    if (missing.length > 0) {
      throw new AppError('forbidden', `This API key lacks the scope ${missing.join(', ')}`, {
        headers: { 'WWW-Authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${scopes.join(' ')}"` },
      });
    }
    c.set('principal', principal);
    await next();
  };
}
