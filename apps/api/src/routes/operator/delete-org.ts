import { createRoute, z } from '@hono/zod-openapi';
import { requireOperator } from '../../auth/operator';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { OPERATOR_SCHEME } from './create-org';

export const deleteAdminOrgByIdRoute = createRoute({
  method: 'delete',
  path: '/v1/admin/orgs/{org_id}',
  operationId: 'deleteAdminOrgById',
  tags: ['Operator'],
  summary: 'Delete an org (operator)',
  description:
    "Deletes the org and everything it holds: users, keys, memories, workstreams, its audit trail, and its objects in the archive. Needs the operator token; without MEMORY_BANK_OPERATOR_TOKEN the route answers 404.",
  security: [{ [OPERATOR_SCHEME]: [] }],
  'x-mcp': false,
  middleware: [requireOperator()] as const,
  request: {
    params: z.object({ org_id: z.string().openapi({ param: { name: 'org_id', in: 'path' }, example: 'org_01JD3W6Q8Z9K2M4N5P6R7S8T9V' }) }),
  },
  responses: {
    200: {
      description: 'What was deleted.',
      content: {
        'application/json': {
          schema: z.object({
            deleted: z.object({
              memories: z.number().int(),
              contexts: z.number().int(),
              workstreams: z.number().int(),
              segments: z.number().int(),
              users: z.number().int(),
              api_keys: z.number().int(),
            }),
          }),
        },
      },
    },
    ...problemResponses(401, 404),
  },
});

export function registerDeleteAdminOrgById(app: ApiApp) {
  app.openapi(deleteAdminOrgByIdRoute, async (c) => {
    const deleted = await c.get('services').operator.deleteOrg(c.req.valid('param').org_id, c.get('requestId'));
    return c.json({ deleted }, 200);
  });
}
