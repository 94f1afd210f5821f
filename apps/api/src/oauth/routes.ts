import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import { routeNotFound } from '../auth/operator';
import { AppError } from '../errors';
import type { ApiApp, AppEnv } from '../http/env';
import { createMemoryBucketStore } from '../http/rate-limit';
import { CONSOLE_PATH } from '../routes/system/console';
import type { BrowserExchange } from './consent';
import type { OAuthServer } from './index';
import {
  AGENT_SCOPES,
  AUTHORIZATION_SERVER_METADATA_PATH,
  INTERACTION_PATH,
  MCP_OAUTH_RESOURCE_METADATA_PATH,
  OAUTH_PATH,
  REGISTRATIONS_PER_MINUTE,
} from './settings';

/** The Node request and response of a request served over HTTP (an in-process request has none). */
export function browserExchange(c: Context<AppEnv>): BrowserExchange {
  const { incoming, outgoing } = c.env ?? {};
  if (!incoming || !outgoing) throw routeNotFound();
  return { incoming, outgoing };
}

/**
 * Mounts the authorization server (oidc-provider, a Koa app) under /oauth: its requests go
 * to it as they came, their URLs rewritten to PUBLIC_URL's so that every URL it writes
 * (metadata, redirects, cookies) names the service as clients know it.
 */
export function registerOAuthRoutes(app: ApiApp, oauth: OAuthServer) {
  const issuer = new URL(oauth.urls.issuer);
  const registrations = createMemoryBucketStore();
  const registrationLimit = { perSecond: REGISTRATIONS_PER_MINUTE / 60, burst: REGISTRATIONS_PER_MINUTE };

  // The provider's Node handler, composed once (Koa composes its middleware on every callback()).
  let composed: Promise<ReturnType<Awaited<ReturnType<OAuthServer['provider']>>['callback']>> | undefined;
  const handler = () => {
    const attempt = (composed ??= oauth.provider().then((provider) => provider.callback()));
    // A provider that could not be built (the database down) is built again by the next request.
    attempt.catch(() => {
      if (composed === attempt) composed = undefined;
    });
    return attempt;
  };

  async function handOff(c: Context<AppEnv>, path: string): Promise<Response> {
    const { incoming, outgoing } = browserExchange(c);
    incoming.headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
    incoming.headers['x-forwarded-host'] = issuer.host;
    const url = new URL(c.req.url);
    // RFC 6749 §3.3: a request without `scope` gets the agent's (oidc-provider would grant none).
    if (path === '/auth' && c.req.method === 'GET' && !url.searchParams.has('scope')) url.searchParams.set('scope', AGENT_SCOPES.join(' '));
    const search = url.search;
    Object.assign(incoming, { originalUrl: `${OAUTH_PATH}${path}${search}`, url: `${path}${search}` });
    await (await handler())(incoming, outgoing);
    return RESPONSE_ALREADY_SENT;
  }

  // RFC 8414 §3.1: the metadata of issuer <PUBLIC_URL>/oauth, at the path-inserted well-known URL.
  app.get(AUTHORIZATION_SERVER_METADATA_PATH, (c) => handOff(c, '/.well-known/openid-configuration'));

  // RFC 9728: the protected resource metadata of <PUBLIC_URL>/mcp/oauth.
  app.get(MCP_OAUTH_RESOURCE_METADATA_PATH, (c) =>
    c.json(
      {
        resource: oauth.urls.resource,
        authorization_servers: [oauth.urls.issuer],
        scopes_supported: [...AGENT_SCOPES],
        bearer_methods_supported: ['header'],
        resource_name: 'Memory Bank',
        resource_documentation: `${new URL(oauth.urls.resource).origin}/docs`,
      },
      200,
      // Public metadata, read by browser-based MCP clients too.
      { 'Cache-Control': 'public, max-age=3600', 'Access-Control-Allow-Origin': '*' },
    ),
  );

  // Where the authorization endpoint sends the browser: the console signs the person in and asks.
  app.get(`${INTERACTION_PATH}/:uid`, (c) => c.redirect(`${CONSOLE_PATH}/authorize/${encodeURIComponent(c.req.param('uid'))}`, 303));

  // Dynamic registration is rate limited per client address (RFC 7591 §5: open registration invites abuse).
  app.post(`${OAUTH_PATH}/reg`, async (c, next) => {
    const address = c.env?.incoming?.socket.remoteAddress ?? 'unknown';
    const outcome = await registrations.take([{ name: `registration:${address}`, limit: registrationLimit }]);
    if (outcome && !outcome.admitted) throw new AppError('rate_limited', 'Too many client registrations from this address; retry in a minute', { retryAfterSeconds: 60 });
    await next();
  });

  app.all(`${OAUTH_PATH}/*`, (c) => handOff(c, c.req.path.slice(OAUTH_PATH.length)));
}
