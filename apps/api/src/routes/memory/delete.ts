import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { IfMatchHeaders } from '../../http/preconditions';
import { authedRoute } from '../../http/route';
import { MemoryIdParams } from './schemas';

export const deleteMemoryByIdRoute = authedRoute(['memory:write'], {
  method: 'delete',
  path: '/v1/memory/{id}',
  operationId: 'deleteMemoryById',
  tags: ['Memory'],
  summary: 'Delete a memory',
  description: "Deletes the memory and its contexts. It is gone from list, read and search as soon as this returns. Admins and owners may delete any memory of their org, members' private ones included (audited); members may not delete org-shared ones (403). With `If-Match`, only if the memory is still that version (412 otherwise).",
  request: { params: MemoryIdParams, headers: IfMatchHeaders },
  responses: {
    204: { description: 'Deleted.' },
    ...problemResponses(401, 403, 404, 412),
  },
});

export function registerDeleteMemoryById(app: ApiApp) {
  app.openapi(deleteMemoryByIdRoute, async (c) => {
    await c.var.services.memory.remove(c.var.principal, c.req.valid('param').id, { ifMatch: c.req.valid('header')['if-match'] });
    return c.body(null, 204);
  });
}
