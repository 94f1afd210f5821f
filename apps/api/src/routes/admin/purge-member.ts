import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { PurgeCountsSchema, UserIdParams } from '../org/schemas';

export const deleteAdminMemberMemoriesRoute = authedRoute(['admin'], {
  method: 'delete',
  path: '/v1/admin/members/{user_id}/memories',
  operationId: 'deleteAdminMemberMemories',
  tags: ['Admin'],
  summary: "Purge a member's memories",
  description:
    "Deletes all of the member's private memories with their contexts and, with `include=workstreams`, their workstreams including archived segments. Gone from search at once. Org-shared memories stay with the org. Audited.",
  request: {
    params: UserIdParams,
    query: z.object({
      include: z.enum(['workstreams']).optional().openapi({ description: '`workstreams`: also delete their agent sessions and archives.' }),
    }),
  },
  responses: {
    200: { description: 'What was deleted.', content: { 'application/json': { schema: z.object({ deleted: PurgeCountsSchema }) } } },
    ...problemResponses(400, 401, 403, 404),
  },
});

export function registerDeleteAdminMemberMemories(app: ApiApp) {
  app.openapi(deleteAdminMemberMemoriesRoute, async (c) => {
    const deleted = await c.get('services').members.purgeMember(c.get('principal'), c.req.valid('param').user_id, {
      workstreams: c.req.valid('query').include === 'workstreams',
    });
    return c.json({ deleted }, 200);
  });
}
