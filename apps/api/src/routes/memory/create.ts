import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { CreateMemoryBody, MemorySchema, toMemoryResponse } from './schemas';

export const postMemoryRoute = authedRoute(['memory:write'], {
  method: 'post',
  path: '/v1/memory',
  operationId: 'postMemory',
  tags: ['Memory'],
  summary: 'Save a memory',
  description:
    'Saves one durable fact, decision or preference so later sessions can find it; searchable as soon as this returns. Use it when the user states something worth keeping or asks you to remember; to correct an existing memory use patchMemoryById instead. Add tags, and contexts (the snippet it came from) so it can be cited. `scope: "org"` (admins and owners) shares it with the whole team. 409 when the org is at its memory quota.',
  request: { body: { required: true, content: { 'application/json': { schema: CreateMemoryBody } } } },
  responses: {
    201: { description: 'The saved memory.', content: { 'application/json': { schema: MemorySchema } } },
    ...problemResponses(400, 401, 403, 409, 413, 415),
  },
});

export function registerPostMemory(app: ApiApp) {
  app.openapi(postMemoryRoute, async (c) => {
    const source = c.env?.channel === 'mcp' ? 'mcp' : 'api';
    const memory = await c.var.services.memory.create(c.var.principal, c.req.valid('json'), source);
    return c.json(toMemoryResponse(memory), 201);
  });
}
