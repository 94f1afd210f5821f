import type { Database } from '@memory-bank/db';
import { orgScopeOf } from '@memory-bank/db/system';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import type { Authenticator } from '../auth/principal';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { errorForLog } from '../logger';
import type { OAuthGrantService } from '../services/oauth-grants';
import { createConsent, type Consent } from './consent';
import { createProvider } from './provider';
import { oauthUrls, type OAuthUrls } from './settings';
import { createTokenAuthentication, type TokenCache } from './tokens';

export interface OAuthServer {
  urls: OAuthUrls;
  /** The authorization server, built (keys loaded from the database) on first use. */
  provider(): Promise<Provider>;
  /** Access tokens for /mcp/oauth. */
  tokens: Authenticator;
  /** Remembers token lookups for API_KEY_CACHE_MS; told of every credential change. */
  tokenCache: TokenCache;
  consent: Consent;
}

export interface OAuthDeps {
  db: Database;
  config: Config;
  clock: Clock;
  logger: Logger;
  grants: OAuthGrantService;
}

/** The MCP authorization server and what the service needs of it. */
export function createOAuthServer({ db, config, clock, logger, grants }: OAuthDeps): OAuthServer {
  const urls = oauthUrls(config);
  let building: Promise<Provider> | undefined;
  const provider = () => {
    if (!building) {
      const attempt = createProvider({
        db,
        config,
        clock,
        logger,
        // A grant the authorization server deleted itself: audited like a revocation in the console.
        onGrantDestroyed: async (row) => {
          if (!row.orgId || !row.userId || !row.grantId) return;
          await grants.recordRevoked(orgScopeOf({ id: row.orgId }), row.userId, row.grantId, 'oauth').catch((error: unknown) =>
            logger.warn({ error: errorForLog(error) }, 'could not audit a revoked grant'),
          );
        },
      });
      building = attempt;
      // A failed start (the database unreachable) is retried by the next request.
      attempt.catch(() => {
        if (building === attempt) building = undefined;
      });
    }
    return building;
  };
  const tokens = createTokenAuthentication({ db, clock, logger, provider, resource: urls.resource, cacheMs: config.API_KEY_CACHE_MS });
  return { urls, provider, tokens, tokenCache: tokens.cache, consent: createConsent({ db, urls, provider, grants }) };
}
