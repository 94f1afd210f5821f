import { z } from '@hono/zod-openapi';
import { ROLES } from '@memory-bank/db';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { IssuedApiKeySchema, toIssuedApiKeyResponse } from '../api-keys/schemas';
import { Email, UserSchema, toUserResponse } from './schemas';

export const AddMemberBody = z
  .object({
    email: Email,
    role: z.enum(ROLES).openapi({ description: 'Only an owner can add another owner.' }),
  })
  .openapi('AddMember');

export const postOrgMemberRoute = authedRoute(['admin'], {
  method: 'post',
  path: '/v1/org/members',
  operationId: 'postOrgMember',
  tags: ['Org'],
  summary: 'Add a member to your org',
  description: "Org admins and owners add a user and receive the user's first API key (shown once).",
  request: { body: { required: true, content: { 'application/json': { schema: AddMemberBody } } } },
  responses: {
    201: {
      description: 'The new member and their first key.',
      content: { 'application/json': { schema: z.object({ user: UserSchema, api_key: IssuedApiKeySchema }) } },
    },
    ...problemResponses(400, 401, 403, 409, 413, 415),
  },
});

export function registerPostOrgMember(app: ApiApp) {
  app.openapi(postOrgMemberRoute, async (c) => {
    const added = await c.get('services').members.addMember(c.get('principal'), c.req.valid('json'));
    return c.json({ user: toUserResponse(added.user), api_key: toIssuedApiKeyResponse(added.apiKey) }, 201);
  });
}
