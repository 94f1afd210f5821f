import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { IfMatchHeaders, etagResponseHeader } from '../../http/preconditions';
import { authedRoute } from '../../http/route';
import { memoryEtag } from '../../services/preconditions';
import { MemoryIdParams, SavedMemorySchema, UpdateMemoryBody, expiryOf, toSavedMemoryResponse } from './schemas';

export const patchMemoryByIdRoute = authedRoute(['memory:write'], {
  method: 'patch',
  path: '/v1/memory/{id}',
  operationId: 'patchMemoryById',
  tags: ['Memory'],
  summary: 'Update a memory',
  description: 'Corrects a memory: replaces its content and/or tags (contexts are kept; secrets in new content are redacted as on save), sets or clears its expiry, pins or unpins it; search sees it at once. Use it when a saved fact changed, rather than saving a contradicting memory with postMemory. Org-shared memories: admins and owners only (403). With `If-Match`, only if still that version (412 otherwise).',
  request: {
    params: MemoryIdParams,
    headers: IfMatchHeaders,
    body: { required: true, content: { 'application/json': { schema: UpdateMemoryBody } } },
  },
  responses: {
    200: { description: 'The updated memory.', headers: etagResponseHeader, content: { 'application/json': { schema: SavedMemorySchema } } },
    ...problemResponses(400, 401, 403, 404, 412, 413, 415),
  },
});

export function registerPatchMemoryById(app: ApiApp) {
  app.openapi(patchMemoryByIdRoute, async (c) => {
    const { expires_at, ttl_seconds, ...change } = c.req.valid('json');
    const expiry = expiryOf({ expires_at, ttl_seconds });
    const memory = await c.get('services').memory.update(c.get('principal'), c.req.valid('param').id, { ...change, ...(expiry && { expiry }) }, {
      ifMatch: c.req.valid('header')['if-match'],
    });
    c.header('ETag', memoryEtag(memory));
    return c.json(toSavedMemoryResponse(memory), 200);
  });
}
