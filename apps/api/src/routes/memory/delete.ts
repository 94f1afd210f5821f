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
  description: "Permanently deletes one memory and its contexts; gone from list, read and search at once. Only when the user asks or it is wrong; to fix one use patchMemoryById. Admins and owners may delete any memory of their org (audited); members not org-shared ones (403). With `If-Match`, only if still that version (412 otherwise).",
  request: { params: MemoryIdParams, headers: IfMatchHeaders },
  responses: {
    204: { description: 'Deleted.' },
    ...problemResponses(401, 403, 404, 412),
  },
});

export function registerDeleteMemoryById(app: ApiApp) {
  app.openapi(deleteMemoryByIdRoute, async (c) => {
    await c.get('services').memory.remove(c.get('principal'), c.req.valid('param').id, { ifMatch: c.req.valid('header')['if-match'] });
    return c.body(null, 204);
  });
}
