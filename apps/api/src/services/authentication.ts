import { API_KEY_PREFIX } from '../auth/api-key-secret';
import type { Authenticator, Principal } from '../auth/principal';
import type { ApiKeyService } from './api-keys';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * One entry point for every bearer credential: our API keys (`mbk_…`) and, when
 * configured, OpenID Connect access/ID tokens (JWTs) from the web app's issuer.
 */
export function createAuthentication(apiKeys: ApiKeyService, oidc: Authenticator | null): Authenticator {
  return {
    async authenticate(token: string, requestId: string): Promise<Principal | null> {
      if (token.startsWith(API_KEY_PREFIX)) return apiKeys.authenticate(token, requestId);
      if (oidc && JWT_SHAPE.test(token)) return oidc.authenticate(token, requestId);
      return null;
    },
  };
}
