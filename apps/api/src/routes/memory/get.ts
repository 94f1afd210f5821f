import type { ApiApp } from '../../http/env';
import { inProcess } from '../../http/in-process';
import { problemResponses } from '../../http/problems';
import { etagResponseHeader } from '../../http/preconditions';
import { authedRoute } from '../../http/route';
import { memoryEtag } from '../../services/preconditions';
import { MemoryIdParams, MemorySchema, toMemoryResponse } from './schemas';

export const getMemoryByIdRoute = authedRoute(['memory:read'], {
  method: 'get',
  path: '/v1/memory/{id}',
  operationId: 'getMemoryById',
  tags: ['Memory'],
  summary: 'Read a memory',
  description: 'Reads one memory whole by its mem_ id, with all its contexts. Use it after getMemorySearch or getMemory, before citing or changing a memory; to find memories by topic use getMemorySearch.',
  request: { params: MemoryIdParams },
  responses: {
    200: { description: 'The memory.', headers: etagResponseHeader, content: { 'application/json': { schema: MemorySchema } } },
    ...problemResponses(401, 403, 404),
  },
});

export function registerGetMemoryById(app: ApiApp) {
  app.openapi(getMemoryByIdRoute, async (c) => {
    const memory = await c.get('services').memory.get(c.get('principal'), c.req.valid('param').id);
    // An agent read it over MCP: a use (recall prefers used memories).
    if (inProcess(c)) c.get('services').memoryUse.record(c.get('principal'), [memory.id]);
    c.header('ETag', memoryEtag(memory));
    return c.json(toMemoryResponse(memory), 200);
  });
}
