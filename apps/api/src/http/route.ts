import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { ApiKeyScope } from '@memory-bank/db';
import { requireScopes } from '../auth/bearer';
import { documentedProblem } from './problems';

export const BEARER_SCHEME = 'bearerAuth';

/**
 * A route that needs an API key with `scopes`, and may so be rate limited (429). The scopes are written once, here: into
 * the OpenAPI security requirement (which the MCP bridge reads to decide who sees the
 * tool) and into the middleware that enforces them. `scopesCheckedBy: 'service'` is for
 * the rare operation whose need depends on the target (revoking one's own key needs no
 * scope): the middleware then only authenticates and the service enforces `scopes`.
 */
export function authedRoute<const R extends Omit<RouteConfig, 'security' | 'middleware'>>(
  scopes: readonly ApiKeyScope[],
  route: R,
  options: { scopesCheckedBy?: 'middleware' | 'service' } = {},
) {
  return createRoute({
    ...route,
    // Every authenticated request draws on its key's and its org's rate limits.
    responses: { ...route.responses, 429: documentedProblem(429) },
    security: [{ [BEARER_SCHEME]: [...scopes] }],
    middleware: [requireScopes(options.scopesCheckedBy === 'service' ? [] : scopes)] as const,
  });
}
