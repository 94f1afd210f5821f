import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { MemoryIdParams } from './schemas';

export const deleteMemoryByIdRoute = authedRoute(['memory:write'], {
  method: 'delete',
  path: '/v1/memory/{id}',
  operationId: 'deleteMemoryById',
  tags: ['Memory'],
  summary: 'Delete a memory',
  description: "Permanently deletes one memory (by its mem_ id) and its contexts; it is gone from list, read and search at once. Use it only when the user asks or the memory is wrong; to fix a memory prefer patchMemoryById. Admins and owners may delete any memory of their org (audited); members may not delete org-shared ones (403).",
  request: { params: MemoryIdParams },
  responses: {
    204: { description: 'Deleted.' },
    ...problemResponses(401, 403, 404),
  },
});

export function registerDeleteMemoryById(app: ApiApp) {
  app.openapi(deleteMemoryByIdRoute, async (c) => {
    await c.var.services.memory.remove(c.var.principal, c.req.valid('param').id);
    return c.body(null, 204);
  });
}
