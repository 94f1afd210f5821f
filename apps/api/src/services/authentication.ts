import { findKeyHolder, touchApiKey, type KeyHolder } from '@memory-bank/db/system';
import type { Logger } from 'pino';
import { API_KEY_PREFIX, hashApiKey, looksLikeApiKey } from '../auth/api-key-secret';
import { createCredentialCache, redisCredentialBroadcast, type CredentialCache } from '../auth/credential-cache';
import type { Authenticator, Principal } from '../auth/principal';
import type { Config } from '../config';
import { errorForLog } from '../logger';
import type { ServiceDeps } from './deps';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** How often at most a key's last_used_at is written. */
const TOUCH_INTERVAL_MS = 60_000;

/** API-key lookups by the key's hash, trusted for API_KEY_CACHE_MS. */
export type KeyCache = CredentialCache<KeyHolder>;

/** The key cache of an API process: API_KEY_CACHE_MS, and REDIS_URL to hear other processes' changes. */
export function createKeyCache(config: Pick<Config, 'API_KEY_CACHE_MS' | 'REDIS_URL'>, logger: Logger): KeyCache {
  return createCredentialCache<KeyHolder>({
    ttlMs: config.API_KEY_CACHE_MS,
    orgOf: (holder) => holder.scope.orgId,
    ...(config.REDIS_URL ? { broadcast: redisCredentialBroadcast(config.REDIS_URL, logger) } : {}),
    logger,
  });
}

/**
 * One entry point for every bearer credential: our API keys (`mbk_…`) and, when
 * configured, OpenID Connect access/ID tokens (JWTs) from the web app's issuer. This is
 * where owner scopes come from: the credential lookup hands back the scope of its holder.
 */
export function createAuthentication({ db, clock, logger }: Pick<ServiceDeps, 'db' | 'clock' | 'logger'>, keys: KeyCache, oidc: Authenticator | null): Authenticator {
  /** A live key's holder, from the cache while it is fresh. */
  async function keyHolder(hash: string): Promise<KeyHolder | null> {
    const cached = keys.get(hash);
    if (cached) return cached;
    const generation = keys.generation;
    const holder = await findKeyHolder(db, hash);
    if (holder) keys.set(hash, holder, generation);
    return holder;
  }

  /** The principal behind a bearer key, or null for an unknown, malformed or revoked key. */
  async function authenticateApiKey(key: string, requestId: string): Promise<Principal | null> {
    if (!looksLikeApiKey(key)) return null;
    const holder = await keyHolder(hashApiKey(key));
    if (!holder) return null;
    const now = clock.now();
    if (!holder.lastUsedAt || now.getTime() - holder.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
      // The cached holder remembers it too, so requests it answers do not write again.
      holder.lastUsedAt = now;
      touchApiKey(db, { orgId: holder.scope.orgId, keyId: holder.keyId }, now).catch((error: unknown) =>
        logger.warn({ error: errorForLog(error), key_id: holder.keyId }, 'could not record key use'),
      );
    }
    return {
      scope: holder.scope,
      via: 'api_key',
      keyId: holder.keyId,
      scopes: holder.scopes,
      recallBudgetChars: holder.recallBudgetChars,
      redactsMemorySecrets: holder.redactsMemorySecrets,
      dedupesMemories: holder.dedupesMemories,
      requestId,
    };
  }

  return {
    async authenticate(token: string, requestId: string): Promise<Principal | null> {
      if (token.startsWith(API_KEY_PREFIX)) return authenticateApiKey(token, requestId);
      if (oidc && JWT_SHAPE.test(token)) return oidc.authenticate(token, requestId);
      return null;
    },
  };
}
