import { createHash } from 'node:crypto';
import type { ApiKeyScope, Database } from '@memory-bank/db';
import { findOAuthAccount, touchOAuthGrant } from '@memory-bank/db/system';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import { createCredentialCache, type CredentialCache } from '../auth/credential-cache';
import { defaultScopes, type Authenticator, type Principal } from '../auth/principal';
import type { Clock } from '../clock';
import { errorForLog } from '../logger';
import { recordRef } from './adapter';
import { GRANTABLE_SCOPES } from './settings';

/** How often at most a grant's last_used_at is written. */
const TOUCH_INTERVAL_MS = 60_000;

/** What a valid access token says about its bearer, as cached. */
interface TokenHolder {
  principal: Omit<Principal, 'requestId'>;
  grantRef: string;
  /** When the token expires (epoch ms): a cached holder never outlives it. */
  expiresAt: number;
}

export interface TokenDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  provider: () => Promise<Provider>;
  /** The resource tokens must be bound to (<PUBLIC_URL>/mcp/oauth). */
  resource: string;
  /** How long a looked-up token is trusted (API_KEY_CACHE_MS). */
  cacheMs: number;
}

export type TokenCache = CredentialCache<TokenHolder>;

const isGrantable = (scope: string): scope is ApiKeyScope => (GRANTABLE_SCOPES as readonly string[]).includes(scope);

/**
 * Access tokens of the MCP authorization server, for /mcp/oauth only: a token bound to
 * another resource (or to none) is refused, and API routes never see these tokens. What a
 * token may do is its scopes as far as its holder's role allows today; a removed member's,
 * a revoked grant's and an expired token are refused within the cache window.
 */
export function createTokenAuthentication({ db, clock, logger, provider, resource, cacheMs }: TokenDeps): Authenticator & { cache: TokenCache } {
  const cache: TokenCache = createCredentialCache<TokenHolder>({ ttlMs: cacheMs, orgOf: (holder) => holder.principal.scope.orgId, logger });
  const lastTouched = new Map<string, number>();

  async function lookUp(token: string): Promise<TokenHolder | null> {
    const accessToken = await (await provider()).AccessToken.find(token);
    if (!accessToken?.accountId || !accessToken.grantId) return null;
    const audience = accessToken.aud;
    if (audience !== resource && !(Array.isArray(audience) && audience.length === 1 && audience[0] === resource)) return null;
    const account = await findOAuthAccount(db, accessToken.accountId);
    if (!account) return null;
    const allowed = defaultScopes(account.scope.role);
    const scopes = (accessToken.scope ?? '').split(' ').filter(isGrantable).filter((scope) => allowed.includes(scope));
    return {
      principal: { scope: account.scope, via: 'oauth', keyId: null, scopes, recallBudgetChars: null, redactsMemorySecrets: account.redactsMemorySecrets, dedupesMemories: account.dedupesMemories },
      grantRef: recordRef('Grant', accessToken.grantId),
      expiresAt: (accessToken.exp ?? 0) * 1000,
    };
  }

  function touch(holder: TokenHolder, now: Date): void {
    const last = lastTouched.get(holder.grantRef) ?? 0;
    if (now.getTime() - last < TOUCH_INTERVAL_MS) return;
    if (lastTouched.size > 10_000) lastTouched.clear();
    lastTouched.set(holder.grantRef, now.getTime());
    touchOAuthGrant(db, holder.grantRef, now).catch((error: unknown) => logger.warn({ error: errorForLog(error) }, 'could not record a grant use'));
  }

  return {
    cache,
    async authenticate(token: string, requestId: string): Promise<Principal | null> {
      if (token.length > 512) return null;
      const hash = createHash('sha256').update(token).digest('hex');
      let holder = cache.get(hash);
      if (!holder) {
        const generation = cache.generation;
        holder = (await lookUp(token)) ?? undefined;
        if (holder) cache.set(hash, holder, generation);
      }
      const now = clock.now();
      if (!holder || holder.expiresAt <= now.getTime()) return null;
      touch(holder, now);
      return { ...holder.principal, requestId };
    },
  };
}
