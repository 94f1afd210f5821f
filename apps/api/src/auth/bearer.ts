import type { ApiKeyScope } from '@memory-bank/db';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { AppError, insufficientScope } from '../errors';
import type { AppEnv } from '../http/env';
import { oidcEnabled } from '../config';
import type { Principal } from './principal';

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer[ ]+([^\s]+)\s*$/i);
  return match?.[1] ?? null;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether a presented secret is the expected one, in constant time (digests have one length, so the time says nothing of the secret's). */
export function matchesSecret(presented: string | null, expected: string): boolean {
  return timingSafeEqual(digest(presented ?? ''), digest(expected)) && presented !== null;
}

/** Where MCP clients discover how to sign in (RFC 9728), when OIDC is configured. */
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

export interface BearerOptions {
  /**
   * Name the protected resource metadata (RFC 9728) in a 401's WWW-Authenticate, when
   * OIDC is configured: set by the MCP endpoint, whose clients discover sign-in that way.
   */
  advertiseResourceMetadata?: boolean;
}

function unauthorized(c: Context<AppEnv>, options: BearerOptions, detail: string, error?: 'invalid_token'): AppError {
  const config = c.get('config');
  const origin = config.PUBLIC_URL ? new URL(config.PUBLIC_URL).origin : new URL(c.req.url).origin;
  const resourceMetadata = options.advertiseResourceMetadata && oidcEnabled(config) ? `${origin}${PROTECTED_RESOURCE_METADATA_PATH}` : undefined;
  return new AppError('unauthorized', detail, { challenge: { ...(error && { error }), ...(resourceMetadata && { resourceMetadata }) } });
}

async function authenticate(c: Context<AppEnv>, options: BearerOptions): Promise<Principal> {
  const token = bearerToken(c.req.header('authorization'));
  if (!token) throw unauthorized(c, options, 'This operation needs credentials: Authorization: Bearer <API key or sign-in token>');
  const principal = await c.get('services').authentication.authenticate(token, c.get('requestId'));
  if (!principal) throw unauthorized(c, options, 'The credentials are unknown, expired or revoked', 'invalid_token');
  await c.get('limiter').admit(principal, (name, value) => c.header(name, value));
  return principal;
}

/**
 * Authenticates the bearer API key and checks that it carries every scope in
 * `scopes`; sets `principal`. 401 for missing/unknown/revoked keys, 403 for scopes.
 */
export function requireScopes(scopes: readonly ApiKeyScope[], options: BearerOptions = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = c.env?.principal ?? (await authenticate(c, options));
    const missing = scopes.filter((scope) => !principal.scopes.includes(scope));
    if (missing.length > 0) throw insufficientScope(scopes, missing);
    c.set('principal', principal);
    await next();
  };
}
