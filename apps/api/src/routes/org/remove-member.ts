import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { PurgeCountsSchema, UserIdParams, UserSchema, toUserResponse } from './schemas';

export const deleteOrgMemberByIdRoute = authedRoute(['admin'], {
  method: 'delete',
  path: '/v1/org/members/{user_id}',
  operationId: 'deleteOrgMemberById',
  tags: ['Org'],
  summary: 'Remove a member',
  description:
    "Revokes the member's keys at once and, unless `keep_data=true`, purges their private memories and their workstreams (archived objects included). Admins remove members; only owners remove admins and owners; nobody removes themselves. Audited.",
  request: {
    params: UserIdParams,
    query: z.object({
      keep_data: z
        .enum(['true', 'false'])
        .default('false')
        .transform((value) => value === 'true')
        .openapi({ type: 'string', description: "`true`: keep the member's memories and workstreams (purge them later if needed)." }),
    }),
  },
  responses: {
    200: {
      description: 'Removed.',
      content: {
        'application/json': {
          schema: z.object({ user: UserSchema, keys_revoked: z.number().int(), deleted: PurgeCountsSchema }),
        },
      },
    },
    ...problemResponses(400, 401, 403, 404, 409),
  },
});

export function registerDeleteOrgMemberById(app: ApiApp) {
  app.openapi(deleteOrgMemberByIdRoute, async (c) => {
    const removed = await c.get('services').members.removeMember(c.get('principal'), c.req.valid('param').user_id, {
      keepData: c.req.valid('query').keep_data,
    });
    return c.json({ user: toUserResponse(removed.user), keys_revoked: removed.keysRevoked, deleted: removed.deleted }, 200);
  });
}
