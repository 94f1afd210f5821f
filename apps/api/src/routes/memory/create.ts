import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { CreateMemoryBody, SavedMemorySchema, toSavedMemoryResponse } from './schemas';

export const postMemoryRoute = authedRoute(['memory:write'], {
  method: 'post',
  path: '/v1/memory',
  operationId: 'postMemory',
  tags: ['Memory'],
  summary: 'Save a memory',
  description:
    'Saves a text memory, with optional tags and citation contexts, in one transaction. It is searchable as soon as this returns. `scope: "org"` (admins and owners) shares it with the org. Secrets in the content and contexts are stored as `[REDACTED:<kind>]` (counted in `redacted`) unless the org turned that off. 409 when the org is at its memory quota.',
  request: { body: { required: true, content: { 'application/json': { schema: CreateMemoryBody } } } },
  responses: {
    201: { description: 'The saved memory.', content: { 'application/json': { schema: SavedMemorySchema } } },
    ...problemResponses(400, 401, 403, 409, 413, 415),
  },
});

export function registerPostMemory(app: ApiApp) {
  app.openapi(postMemoryRoute, async (c) => {
    const source = c.env?.channel === 'mcp' ? 'mcp' : 'api';
    const memory = await c.var.services.memory.create(c.var.principal, c.req.valid('json'), source);
    return c.json(toSavedMemoryResponse(memory), 201);
  });
}
