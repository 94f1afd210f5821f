import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';

export const deleteOAuthGrantByIdRoute = authedRoute(['keys:manage'], {
  method: 'delete',
  path: '/v1/oauth/grants/{id}',
  operationId: 'deleteOAuthGrantById',
  tags: ['OAuth'],
  summary: 'Revoke a connected app',
  description: 'Deletes the grant and every token issued under it: the app is refused from its next request. Admins may revoke any member\'s.',
  request: { params: z.object({ id: z.string().min(1).max(64).openapi({ param: { name: 'id', in: 'path' } }) }) },
  responses: { 204: { description: 'Revoked.' }, ...problemResponses(401, 403, 404) },
});

export function registerDeleteOAuthGrantById(app: ApiApp) {
  app.openapi(deleteOAuthGrantByIdRoute, async (c) => {
    await c.get('services').oauthGrants.revoke(c.get('principal'), c.req.valid('param').id);
    return c.body(null, 204);
  });
}
