import { z } from '@hono/zod-openapi';
import { ROLES } from '@memory-bank/db';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { UserIdParams, UserSchema, toUserResponse } from './schemas';

const ChangeRoleBody = z
  .object({ role: z.enum(ROLES).openapi({ description: 'The new role. Only an owner makes or unmakes owners.' }) })
  .openapi('ChangeMemberRole');

export const patchOrgMemberByIdRoute = authedRoute(['admin'], {
  method: 'patch',
  path: '/v1/org/members/{user_id}',
  operationId: 'patchOrgMemberById',
  tags: ['Org'],
  summary: "Change a member's role",
  description:
    "Gives a member another role, from their next request on. Admins change members and admins; only owners make, unmake or change owners; nobody changes their own role; an org keeps an owner. Admin powers also need a key with the `admin` scope. Audited as `member.role` when the role changes.",
  request: { params: UserIdParams, body: { required: true, content: { 'application/json': { schema: ChangeRoleBody } } } },
  responses: {
    200: { description: 'The member with their new role.', content: { 'application/json': { schema: z.object({ user: UserSchema }) } } },
    ...problemResponses(400, 401, 403, 404, 409, 413, 415),
  },
});

export function registerPatchOrgMemberById(app: ApiApp) {
  app.openapi(patchOrgMemberByIdRoute, async (c) => {
    const user = await c.get('services').members.changeRole(c.get('principal'), c.req.valid('param').user_id, c.req.valid('json').role);
    return c.json({ user: toUserResponse(user) }, 200);
  });
}
