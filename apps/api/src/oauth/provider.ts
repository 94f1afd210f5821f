import type { Database, OAuthRecordRow } from '@memory-bank/db';
import { findOAuthAccount } from '@memory-bank/db/system';
import Provider, { errors, type Configuration, type ErrorOut, type KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from 'pino';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { errorForLog } from '../logger';
import { mysqlAdapter } from './adapter';
import { isFetchableHost } from './client-documents';
import { loadOAuthKeys } from './keys';
import { CLIENT_DOCUMENT_LIMITS, GRANTABLE_SCOPES, INTERACTION_PATH, OAUTH_TTL, oauthUrls } from './settings';

export interface ProviderDeps {
  db: Database;
  config: Config;
  clock: Clock;
  logger: Logger;
  onGrantDestroyed?: (row: OAuthRecordRow) => Promise<void>;
}

/** OAuth error answers are JSON (RFC 6749 §5.2), also where oidc-provider would render an HTML page. */
function renderError(ctx: KoaContextWithOIDC, out: ErrorOut): void {
  ctx.type = 'application/json';
  ctx.body = out;
}

/**
 * The authorization server for MCP clients: oidc-provider, configured for OAuth 2.1 as the
 * MCP authorization spec asks — authorization code with PKCE (S256) only, every token bound
 * to the /mcp/oauth resource (RFC 8707), `iss` in the authorization response (RFC 9207),
 * clients by metadata document (CIMD) or dynamic registration (RFC 7591), refresh tokens
 * that rotate, revocation (RFC 7009). Sign-in and consent happen in the console
 * (oauth/consent.ts); storage and keys are in MySQL (adapter.ts, keys.ts).
 */
export async function createProvider({ db, config, clock, logger, onGrantDestroyed }: ProviderDeps): Promise<Provider> {
  const urls = oauthUrls(config);
  const keys = await loadOAuthKeys(db, clock);
  const allowLoopback = config.OAUTH_CIMD_ALLOW_LOOPBACK;
  const secureCookies = new URL(urls.issuer).protocol === 'https:';

  const configuration: Configuration = {
    adapter: mysqlAdapter({ db, clock, ...(onGrantDestroyed && { onGrantDestroyed }) }),
    clients: [],
    jwks: { keys: keys.signing },
    cookies: {
      keys: keys.cookies,
      long: { httpOnly: true, sameSite: 'lax', secure: secureCookies, signed: true },
      short: { httpOnly: true, sameSite: 'lax', secure: secureCookies, signed: true },
    },
    async findAccount(_ctx, id) {
      const account = await findOAuthAccount(db, id);
      return account ? { accountId: id, claims: async () => ({ sub: id }) } : undefined;
    },
    // OpenID scopes only: the API's scopes are the MCP resource's (resourceIndicators below),
    // advertised by its protected resource metadata.
    scopes: ['openid', 'offline_access'],
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      // The signing keys are P-256 (keys.ts).
      id_token_signed_response_alg: 'ES256',
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: OAUTH_TTL.accessToken,
      AuthorizationCode: OAUTH_TTL.authorizationCode,
      Interaction: OAUTH_TTL.interaction,
      RefreshToken: OAUTH_TTL.refreshToken,
      Grant: OAUTH_TTL.grant,
      Session: OAUTH_TTL.session,
      IdToken: OAUTH_TTL.accessToken,
    },
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },
    renderError,
    // Browser-based public clients may call the token endpoint from their redirect URIs' origins.
    clientBasedCORS: (_ctx, origin, client) => origin !== 'null' && (client.redirectUris ?? []).some((uri) => URL.canParse(uri) && new URL(uri).origin === origin),
    fetchResponseBodyLimits: { 'client_id metadata document': CLIENT_DOCUMENT_LIMITS.bytes },
    // With OAUTH_CIMD_ALLOW_LOOPBACK, oidc-provider's own check of the connected address
    // (which refuses loopback) is replaced by the host check in allowFetch.
    fetch: (url, options) => globalThis.fetch(url, allowLoopback ? { ...options, dispatcher: undefined } : options),
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: false },
      revocation: { enabled: true },
      registration: config.OAUTH_DYNAMIC_REGISTRATION
        ? { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false }
        : { enabled: false },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        cacheDuration: { min: CLIENT_DOCUMENT_LIMITS.minCacheSeconds, max: CLIENT_DOCUMENT_LIMITS.maxCacheSeconds },
        allowFetch: async (_ctx, clientId) => isFetchableHost(new URL(clientId).hostname, allowLoopback),
      },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets the MCP endpoint's.
        defaultResource: () => urls.resource,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, resource) {
          if (resource !== urls.resource) throw new errors.InvalidTarget(`the only resource is ${urls.resource}`);
          return { scope: GRANTABLE_SCOPES.join(' '), audience: urls.resource, accessTokenTTL: OAUTH_TTL.accessToken, accessTokenFormat: 'opaque' };
        },
      },
    },
  };
  const provider = new Provider(urls.issuer, configuration);
  // Its URLs are built from the request's; requests come in rewritten to PUBLIC_URL's (routes.ts).
  provider.proxy = true;
  provider.on('server_error', (_ctx, error) => logger.error({ error: errorForLog(error) }, 'authorization server error'));
  return provider;
}
