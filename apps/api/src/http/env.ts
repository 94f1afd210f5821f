import type { OpenAPIHono } from '@hono/zod-openapi';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Principal } from '../auth/principal';
import type { Config } from '../config';
import type { AppMetrics } from '../observability/metrics';
import type { OAuthServer } from '../oauth';
import type { Services } from '../services';
import type { RequestLimiter } from './limits';

/**
 * How a request reached the app: over HTTP, or in-process from the MCP bridge. The
 * bridge passes these as the fetch env, which HTTP clients cannot set.
 */
export type RequestChannel = 'http' | 'mcp';

export interface AppBindings {
  channel?: RequestChannel;
  /** The caller the MCP bridge already authenticated (its scopes are still checked). */
  principal?: Principal;
  /** The Node request and response @hono/node-server serves (absent in-process). */
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

/** Read with `c.get(name)`: Hono's `c.var` copies every variable into a new object on each access. */
export interface AppVariables {
  requestId: string;
  services: Services;
  config: Config;
  logger: Logger;
  /** Set by the bearer-auth middleware of authenticated routes. */
  principal: Principal;
  limiter: RequestLimiter;
  /** Present when metrics are on. */
  metrics?: AppMetrics;
  /** The MCP authorization server (oauth/). */
  oauth: OAuthServer;
}

export type AppEnv = { Bindings: AppBindings; Variables: AppVariables };
export type ApiApp = OpenAPIHono<AppEnv>;

/**
 * The status a request was answered with: the Node response's when a handler wrote it
 * directly (the authorization server under /oauth does), else the context's.
 */
export function answeredStatus(c: { env?: AppBindings; res: Response }): number {
  const outgoing = c.env?.outgoing;
  return outgoing?.headersSent ? outgoing.statusCode : c.res.status;
}
