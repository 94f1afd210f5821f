import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';

export const deleteApiKeyByIdRoute = authedRoute(
  ['keys:manage'],
  {
    method: 'delete',
    path: '/v1/api-keys/{id}',
    operationId: 'deleteApiKeyById',
    tags: ['API keys'],
    summary: 'Revoke an API key',
    description:
      'Revokes one of your keys; it stops working with the next request. Revoking a revoked key is a no-op. Revoking another key needs `keys:manage`; any key may revoke itself without it.',
    request: {
      params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'key_01JD3W6Q8Z9K2M4N5P6R7S8T9V' }) }),
    },
    responses: {
      204: { description: 'Revoked.' },
      ...problemResponses(401, 403, 404),
    },
  },
  // A key revoking itself needs no scope: the service checks `keys:manage` against the target.
  { scopesCheckedBy: 'service' },
);

export function registerDeleteApiKeyById(app: ApiApp) {
  app.openapi(deleteApiKeyByIdRoute, async (c) => {
    await c.get('services').apiKeys.revoke(c.get('principal'), c.req.valid('param').id);
    return c.body(null, 204);
  });
}
