import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { GrantSchema, toGrantResponse } from './schemas';

export const getOAuthGrantsRoute = authedRoute(['keys:manage'], {
  method: 'get',
  path: '/v1/oauth/grants',
  operationId: 'getOAuthGrants',
  tags: ['OAuth'],
  summary: 'List connected apps',
  description:
    "The OAuth clients (Claude, ChatGPT, …) you allowed to use Memory Bank through /mcp/oauth, newest first. Admins: `user_id` lists a member's, `all=true` the whole org's.",
  request: {
    query: z.object({
      user_id: z.string().min(1).max(40).optional().openapi({ description: "Admins: this member's connected apps." }),
      all: z.enum(['true', 'false']).optional().openapi({ description: "Admins: every member's connected apps." }),
    }),
  },
  responses: {
    200: { description: 'The connected apps.', content: { 'application/json': { schema: z.object({ grants: z.array(GrantSchema) }) } } },
    ...problemResponses(400, 401, 403, 404),
  },
});

export function registerGetOAuthGrants(app: ApiApp) {
  app.openapi(getOAuthGrantsRoute, async (c) => {
    const query = c.req.valid('query');
    const grants = await c.get('services').oauthGrants.list(c.get('principal'), { ...(query.user_id && { userId: query.user_id }), all: query.all === 'true' });
    return c.json({ grants: grants.map(toGrantResponse) }, 200);
  });
}
