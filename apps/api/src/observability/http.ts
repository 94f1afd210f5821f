import { createServer, type Server } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { AppError } from '../errors';
import { problemResponse } from '../http/errors';
import { answeredStatus, type ApiApp, type AppEnv } from '../http/env';
import { UNMATCHED_ROUTE, type AppMetrics } from './metrics';
import { bearerToken, matchesSecret } from '../auth/bearer';

export const METRICS_PATH = '/metrics';

/**
 * The template of the route that answered (`/v1/memories/:id`), never the raw path. Hono
 * leaves `routeIndex` at the last handler it ran: the route's handler, or the middleware
 * (registered for every method) that answered first — then the route it stood before.
 */
export function routeTemplate(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = Math.max(0, c.req.routeIndex); i < routes.length; i++) {
    if (routes[i]!.method !== 'ALL') return routes[i]!.path;
  }
  return UNMATCHED_ROUTE;
}

/** Request count, duration and in-flight gauge; requests the MCP bridge makes in-process are counted as tool calls instead. */
export function measureRequests(metrics: AppMetrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.env?.channel === 'mcp' || c.req.path === METRICS_PATH) return next();
    const done = metrics.requestStarted(c.req.method);
    try {
      await next();
    } finally {
      done(routeTemplate(c), answeredStatus(c));
    }
  };
}

/** Whether `authorization` is `Bearer <token>`, compared in constant time. */
function bearerMatches(authorization: string | undefined, token: string): boolean {
  return matchesSecret(bearerToken(authorization), token);
}

const exposition = async (metrics: AppMetrics) => ({ body: await metrics.registry.metrics(), contentType: metrics.registry.contentType });

/** GET /metrics on the main port, behind METRICS_TOKEN (not part of the OpenAPI document). */
export function registerMetricsRoute(app: ApiApp, metrics: AppMetrics, token: string): void {
  app.get(METRICS_PATH, async (c) => {
    if (!bearerMatches(c.req.header('authorization'), token)) {
      return problemResponse(c, new AppError('unauthorized', 'GET /metrics needs the metrics token as a bearer token', { challenge: { realm: 'metrics' } }));
    }
    const { body, contentType } = await exposition(metrics);
    return c.body(body, 200, { 'Content-Type': contentType });
  });
}

/**
 * A listener that serves GET /metrics only (METRICS_PORT): scrapes stay off the public
 * port. With METRICS_TOKEN set, the token is required here too.
 */
export function serveMetrics(metrics: AppMetrics, options: { port: number; hostname?: string; token?: string }): Promise<Server> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://metrics').pathname;
    const answer = (status: number, body: string, headers: Record<string, string> = {}) =>
      response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers }).end(body);
    if (path !== METRICS_PATH) return answer(404, 'Not found: this port serves GET /metrics only\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, 'Method not allowed\n', { Allow: 'GET' });
    if (options.token !== undefined && !bearerMatches(request.headers.authorization, options.token)) {
      return answer(401, 'Unauthorized: send the metrics token as a bearer token\n', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    }
    exposition(metrics).then(
      ({ body, contentType }) => answer(200, request.method === 'HEAD' ? '' : body, { 'Content-Type': contentType }),
      () => answer(500, 'Metrics could not be collected\n'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.hostname, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
