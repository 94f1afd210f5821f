import type { Context } from 'hono';
import { PROTECTED_RESOURCE_METADATA_PATH } from '../../auth/bearer';
import { routeNotFound } from '../../auth/operator';
import { oidcEnabled } from '../../config';
import type { ApiApp, AppEnv } from '../../http/env';
import { problemResponse } from '../../http/errors';
import { MCP_PATH } from '../../mcp/path';

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for the MCP endpoint: tells an MCP
 * client which authorization server issues the tokens /mcp accepts. Served only when
 * OIDC sign-in is configured; otherwise the path does not exist.
 */
function protectedResourceMetadata(c: Context<AppEnv>): Response {
  const config = c.get('config');
  if (!oidcEnabled(config)) return problemResponse(c, routeNotFound());
  // The same origin bearer.ts names in resource_metadata, so a client's check that
  // `resource` is the URL it called holds.
  const origin = config.PUBLIC_URL ? new URL(config.PUBLIC_URL).origin : new URL(c.req.url).origin;
  return c.json(
    {
      resource: `${origin}${MCP_PATH}`,
      authorization_servers: [config.OIDC_ISSUER],
      bearer_methods_supported: ['header'],
      resource_name: 'Memory Bank',
      resource_documentation: `${origin}/docs`,
    },
    200,
    { 'Cache-Control': 'public, max-age=3600' },
  );
}

export function registerWellKnownRoutes(app: ApiApp) {
  app.get(PROTECTED_RESOURCE_METADATA_PATH, protectedResourceMetadata);
  // RFC 9728 §3.1: the metadata of https://host/mcp may also be asked for with the path appended.
  app.get(`${PROTECTED_RESOURCE_METADATA_PATH}${MCP_PATH}`, protectedResourceMetadata);
}
