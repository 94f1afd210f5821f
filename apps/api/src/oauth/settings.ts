import { API_KEY_SCOPES, type ApiKeyScope } from '@memory-bank/db';
import { publicUrl, type Config } from '../config';

/** Where the authorization server is mounted: its issuer is <PUBLIC_URL>/oauth. */
export const OAUTH_PATH = '/oauth';
/** The MCP endpoint for OAuth clients (API keys keep using /mcp, which never mentions OAuth). */
export const MCP_OAUTH_PATH = '/mcp/oauth';
/** RFC 9728 §3.1: the protected resource metadata of <PUBLIC_URL>/mcp/oauth. */
export const MCP_OAUTH_RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${MCP_OAUTH_PATH}`;
/** RFC 8414 §3.1: the authorization server metadata of issuer <PUBLIC_URL>/oauth. */
export const AUTHORIZATION_SERVER_METADATA_PATH = `/.well-known/oauth-authorization-server${OAUTH_PATH}`;
/** Where the authorization endpoint sends the browser to sign in and consent. */
export const INTERACTION_PATH = `${OAUTH_PATH}/interaction`;

/** What an agent needs, and what a client asks for when it follows `scopes_supported`. */
export const AGENT_SCOPES: readonly ApiKeyScope[] = ['memory:read', 'memory:write'];

/** Every scope a client may ask for: the API's own; a grant never holds more than the person's role allows. */
export const GRANTABLE_SCOPES: readonly ApiKeyScope[] = API_KEY_SCOPES;

/** What each scope lets a connected app do, as the consent screen says it. */
export const SCOPE_DESCRIPTIONS: Record<ApiKeyScope, string> = {
  'memory:read': 'Read and search your memories',
  'memory:write': 'Save, change and delete your memories',
  'hooks:write': "Record your coding agents' sessions",
  'workstreams:read': "Read your agents' recorded sessions",
  'workstreams:write': "Change and delete your agents' recorded sessions",
  'keys:manage': 'Create, list and revoke your API keys',
  admin: 'Act as an org admin (other members, shared memories, the audit log)',
};

/** Lifetimes, in seconds. */
export const OAUTH_TTL = {
  /** An access token: at most an hour (the client refreshes). */
  accessToken: 3600,
  /** An authorization code: redeemed at once by a working client. */
  authorizationCode: 60,
  /** A sign-in and consent in the console. */
  interaction: 600,
  /** A refresh token, renewed at each use (rotation). */
  refreshToken: 30 * 24 * 3600,
  /** A grant (what "Connected apps" lists): after a year the person connects the app again. */
  grant: 365 * 24 * 3600,
  /** The browser's sign-in at the authorization server (remembers consent between authorizations). */
  session: 14 * 24 * 3600,
  /** A dynamically registered client that never got a grant is deleted after this. */
  unusedClient: 24 * 3600,
} as const;

/** Client metadata documents: fetched at most this large, cached at most this long (seconds). */
export const CLIENT_DOCUMENT_LIMITS = { bytes: 5 * 1024, minCacheSeconds: 60, maxCacheSeconds: 3600 } as const;

/** Registrations per client address per minute (RFC 7591 endpoint). */
export const REGISTRATIONS_PER_MINUTE = 10;

export interface OAuthUrls {
  issuer: string;
  /** The MCP resource every token is bound to (RFC 8707). */
  resource: string;
  resourceMetadata: string;
}

export function oauthUrls(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): OAuthUrls {
  const base = publicUrl(config);
  const origin = new URL(base).origin;
  return {
    issuer: `${base}${OAUTH_PATH}`,
    resource: `${base}${MCP_OAUTH_PATH}`,
    resourceMetadata: `${origin}${MCP_OAUTH_RESOURCE_METADATA_PATH}`,
  };
}
