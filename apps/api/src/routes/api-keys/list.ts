import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { ApiKeySchema, toApiKeyResponse } from './schemas';

export const getApiKeysRoute = authedRoute(['keys:manage'], {
  method: 'get',
  path: '/v1/api-keys',
  operationId: 'getApiKeys',
  tags: ['API keys'],
  summary: 'List your API keys',
  description: 'Your keys, newest first, revoked ones included. Secrets are never shown again.',
  responses: {
    200: {
      description: 'Your keys.',
      content: { 'application/json': { schema: z.object({ api_keys: z.array(ApiKeySchema) }) } },
    },
    ...problemResponses(401, 403),
  },
});

export function registerGetApiKeys(app: ApiApp) {
  app.openapi(getApiKeysRoute, async (c) => {
    const keys = await c.get('services').apiKeys.list(c.get('principal'));
    return c.json({ api_keys: keys.map(toApiKeyResponse) }, 200);
  });
}
