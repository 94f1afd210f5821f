import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { UserSchema, toUserResponse } from './schemas';

export const getOrgMembersRoute = authedRoute(['admin'], {
  method: 'get',
  path: '/v1/org/members',
  operationId: 'getOrgMembers',
  tags: ['Org'],
  summary: "List your org's members",
  description: 'Every user of the org with their role; removed members are listed with `removed_at`. Admins and owners.',
  responses: {
    200: { description: 'The members.', content: { 'application/json': { schema: z.object({ members: z.array(UserSchema) }) } } },
    ...problemResponses(401, 403),
  },
});

export function registerGetOrgMembers(app: ApiApp) {
  app.openapi(getOrgMembersRoute, async (c) => {
    const members = await c.get('services').members.listMembers(c.get('principal'));
    return c.json({ members: members.map(toUserResponse) }, 200);
  });
}
