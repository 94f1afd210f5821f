import type { MiddlewareHandler } from 'hono';
import { bearerToken } from '../auth/bearer';
import { AppError } from '../errors';
import type { AppEnv } from '../http/env';
import type { OAuthServer } from './index';
import { AGENT_SCOPES } from './settings';

/**
 * Authenticates the OAuth access token of a /mcp/oauth request; sets `principal`. A 401
 * names the protected resource metadata and the scopes an agent needs (MCP authorization,
 * RFC 9728 §5.1), which is how a client discovers where to sign in.
 */
export function requireOAuthToken(oauth: OAuthServer): MiddlewareHandler<AppEnv> {
  const challenge = { resourceMetadata: oauth.urls.resourceMetadata, scope: AGENT_SCOPES };
  return async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    if (!token) throw new AppError('unauthorized', `This endpoint takes OAuth access tokens from ${oauth.urls.issuer} (API keys use /mcp)`, { challenge });
    const principal = await oauth.tokens.authenticate(token, c.get('requestId'));
    if (!principal) {
      throw new AppError('unauthorized', 'The access token is unknown, expired, revoked or for another resource', { challenge: { ...challenge, error: 'invalid_token' } });
    }
    await c.get('limiter').admit(principal, (name, value) => c.header(name, value));
    c.set('principal', principal);
    await next();
  };
}
