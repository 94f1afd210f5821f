import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { MemoryIdParams, MemorySchema, toMemoryResponse } from './schemas';

export const getMemoryHistoryRoute = authedRoute(['memory:read'], {
  method: 'get',
  path: '/v1/memory/{id}/history',
  operationId: 'getMemoryHistory',
  tags: ['Memory'],
  summary: 'A memory and its versions',
  description: 'Every version of a memory replaced through `supersedes`, the current one first: how a fact changed. A memory never superseded is its own history.',
  request: { params: MemoryIdParams },
  responses: {
    200: { description: 'The chain, newest first.', content: { 'application/json': { schema: z.object({ memories: z.array(MemorySchema) }) } } },
    ...problemResponses(401, 403, 404),
  },
});

export function registerGetMemoryHistory(app: ApiApp) {
  app.openapi(getMemoryHistoryRoute, async (c) => {
    const memories = await c.get('services').memory.history(c.get('principal'), c.req.valid('param').id);
    return c.json({ memories: memories.map(toMemoryResponse) }, 200);
  });
}
