import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { ApiKeyScope } from '@memory-bank/db';
import { requireScopes } from '../auth/bearer';
import { documentedProblem } from './problems';

export const BEARER_SCHEME = 'bearerAuth';

/**
 * A route that needs an API key with `scopes`, and may so be rate limited (429). The scopes are written once, here: into
 * the OpenAPI security requirement (which the MCP bridge reads to decide who sees the
 * tool) and into the middleware that enforces them.
 */
export function authedRoute<const R extends Omit<RouteConfig, 'security' | 'middleware'>>(
  scopes: readonly ApiKeyScope[],
  route: R,
) {
  return createRoute({
    ...route,
    // Every authenticated request draws on its key's and its org's rate limits.
    responses: { ...route.responses, 429: documentedProblem(429) },
    security: [{ [BEARER_SCHEME]: [...scopes] }],
    middleware: [requireScopes(scopes)] as const,
  });
}
