import { findKeyHolder, touchApiKey } from '@memory-bank/db/system';
import { API_KEY_PREFIX, hashApiKey, looksLikeApiKey } from '../auth/api-key-secret';
import type { Authenticator, Principal } from '../auth/principal';
import { errorForLog } from '../logger';
import type { ServiceDeps } from './deps';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** How often at most a key's last_used_at is written. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * One entry point for every bearer credential: our API keys (`mbk_…`) and, when
 * configured, OpenID Connect access/ID tokens (JWTs) from the web app's issuer. This is
 * where owner scopes come from: the credential lookup hands back the scope of its holder.
 */
export function createAuthentication({ db, clock, logger }: Pick<ServiceDeps, 'db' | 'clock' | 'logger'>, oidc: Authenticator | null): Authenticator {
  /** The principal behind a bearer key, or null for an unknown, malformed or revoked key. */
  async function authenticateApiKey(key: string, requestId: string): Promise<Principal | null> {
    if (!looksLikeApiKey(key)) return null;
    const holder = await findKeyHolder(db, hashApiKey(key));
    if (!holder) return null;
    const now = clock.now();
    if (!holder.lastUsedAt || now.getTime() - holder.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
      touchApiKey(db, { orgId: holder.scope.orgId, keyId: holder.keyId }, now).catch((error: unknown) =>
        logger.warn({ error: errorForLog(error), key_id: holder.keyId }, 'could not record key use'),
      );
    }
    return { scope: holder.scope, via: 'api_key', keyId: holder.keyId, scopes: holder.scopes, recallBudgetChars: holder.recallBudgetChars, requestId };
  }

  return {
    async authenticate(token: string, requestId: string): Promise<Principal | null> {
      if (token.startsWith(API_KEY_PREFIX)) return authenticateApiKey(token, requestId);
      if (oidc && JWT_SHAPE.test(token)) return oidc.authenticate(token, requestId);
      return null;
    },
  };
}
