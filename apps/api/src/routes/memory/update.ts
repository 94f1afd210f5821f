import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { MemoryIdParams, MemorySchema, UpdateMemoryBody, toMemoryResponse } from './schemas';

export const patchMemoryByIdRoute = authedRoute(['memory:write'], {
  method: 'patch',
  path: '/v1/memory/{id}',
  operationId: 'patchMemoryById',
  tags: ['Memory'],
  summary: 'Update a memory',
  description: 'Corrects an existing memory by its mem_ id: replaces its content and/or its tags (contexts are kept); search sees the change at once. Use it when a saved fact changed, rather than saving a contradicting memory with postMemory. Org-shared memories can be changed by admins and owners only (403).',
  request: {
    params: MemoryIdParams,
    body: { required: true, content: { 'application/json': { schema: UpdateMemoryBody } } },
  },
  responses: {
    200: { description: 'The updated memory.', content: { 'application/json': { schema: MemorySchema } } },
    ...problemResponses(400, 401, 403, 404, 413, 415),
  },
});

export function registerPatchMemoryById(app: ApiApp) {
  app.openapi(patchMemoryByIdRoute, async (c) => {
    const memory = await c.var.services.memory.update(c.var.principal, c.req.valid('param').id, c.req.valid('json'));
    return c.json(toMemoryResponse(memory), 200);
  });
}
