import { createRoute, z } from '@hono/zod-openapi';
import { requireOperator } from '../../auth/operator';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { IssuedApiKeySchema, toIssuedApiKeyResponse } from '../api-keys/schemas';
import { boundedText } from '../memory/schemas';
import { Email, OrgSchema, UserSchema, toOrgResponse, toUserResponse } from '../org/schemas';

export const OPERATOR_SCHEME = 'operatorToken';

export const CreateOrgBody = z
  .object({
    name: boundedText(1, 200).openapi({ description: 'The org (tenant) name, 1–200 characters.' }),
    owner: z.object({ email: Email }),
  })
  .openapi('CreateOrg');

export const postAdminOrgRoute = createRoute({
  method: 'post',
  path: '/v1/admin/orgs',
  operationId: 'postAdminOrg',
  tags: ['Operator'],
  summary: 'Provision an org (operator)',
  description:
    "Creates an org, its owner and the owner's first API key (shown once). Needs `Authorization: Bearer <MEMORY_BANK_OPERATOR_TOKEN>`; without that variable the route answers 404.",
  security: [{ [OPERATOR_SCHEME]: [] }],
  'x-mcp': false,
  middleware: [requireOperator()] as const,
  request: { body: { required: true, content: { 'application/json': { schema: CreateOrgBody } } } },
  responses: {
    201: {
      description: 'The org, its owner and the owner key.',
      content: {
        'application/json': {
          schema: z.object({ org: OrgSchema, user: UserSchema, api_key: IssuedApiKeySchema }),
        },
      },
    },
    ...problemResponses(400, 401, 404, 413, 415),
  },
});

export function registerPostAdminOrg(app: ApiApp) {
  app.openapi(postAdminOrgRoute, async (c) => {
    const body = c.req.valid('json');
    const provisioned = await c.get('services').operator.provision({ name: body.name, ownerEmail: body.owner.email }, c.get('requestId'));
    return c.json(
      {
        org: toOrgResponse(provisioned.org),
        user: toUserResponse(provisioned.user),
        api_key: toIssuedApiKeyResponse(provisioned.apiKey),
      },
      201,
    );
  });
}
