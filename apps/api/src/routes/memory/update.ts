import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { MemoryIdParams, SavedMemorySchema, UpdateMemoryBody, toSavedMemoryResponse } from './schemas';

export const patchMemoryByIdRoute = authedRoute(['memory:write'], {
  method: 'patch',
  path: '/v1/memory/{id}',
  operationId: 'patchMemoryById',
  tags: ['Memory'],
  summary: 'Update a memory',
  description: 'Replaces the content and/or the tags (secrets in new content are redacted as on save; see `redacted`). Search sees the change as soon as this returns. Org-shared memories can be changed by admins and owners only (403).',
  request: {
    params: MemoryIdParams,
    body: { required: true, content: { 'application/json': { schema: UpdateMemoryBody } } },
  },
  responses: {
    200: { description: 'The updated memory.', content: { 'application/json': { schema: SavedMemorySchema } } },
    ...problemResponses(400, 401, 403, 404, 413, 415),
  },
});

export function registerPatchMemoryById(app: ApiApp) {
  app.openapi(patchMemoryByIdRoute, async (c) => {
    const memory = await c.var.services.memory.update(c.var.principal, c.req.valid('param').id, c.req.valid('json'));
    return c.json(toSavedMemoryResponse(memory), 200);
  });
}
