import type { ApiApp } from '../../http/env';
import { IdempotencyKeyHeaders, REPLAYED_HEADER, replayedResponseHeader } from '../../http/idempotency';
import { etagResponseHeader } from '../../http/preconditions';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { memoryEtag } from '../../services/preconditions';
import { CreateMemoryBody, SavedMemorySchema, toSavedMemoryResponse } from './schemas';

export const postMemoryRoute = authedRoute(['memory:write'], {
  method: 'post',
  path: '/v1/memory',
  operationId: 'postMemory',
  tags: ['Memory'],
  summary: 'Save a memory',
  description:
    'Saves one durable fact, decision or preference for later sessions; searchable at once. Use it when the user states something worth keeping or asks you to remember; to change an existing memory use patchMemoryById. Add tags, and contexts (the source snippet) for citing. `scope: "org"` (admins and owners) shares it with the whole team. Secrets are stored as `[REDACTED:<kind>]` (counted in `redacted`) unless the org turned that off. 409 when the org is at its quota. Send an `Idempotency-Key` to make a retry safe.',
  request: {
    headers: IdempotencyKeyHeaders,
    body: { required: true, content: { 'application/json': { schema: CreateMemoryBody } } },
  },
  responses: {
    201: {
      description: 'The saved memory (or, replayed, the memory the first request with this Idempotency-Key saved).',
      headers: { ...etagResponseHeader, ...replayedResponseHeader },
      content: { 'application/json': { schema: SavedMemorySchema } },
    },
    ...problemResponses(400, 401, 403, 409, 413, 415, 422),
  },
});

export function registerPostMemory(app: ApiApp) {
  app.openapi(postMemoryRoute, async (c) => {
    const source = c.env?.channel === 'mcp' ? 'mcp' : 'api';
    const key = c.req.valid('header')['idempotency-key'];
    const input = c.req.valid('json');
    const { result: memory, replayed } =
      key === undefined
        ? { result: await c.get('services').memory.create(c.get('principal'), input, source), replayed: false }
        : await c.get('services').memory.createOnce(c.get('principal'), input, source, key);
    if (replayed) c.header(REPLAYED_HEADER, 'true');
    c.header('ETag', memoryEtag(memory));
    return c.json(toSavedMemoryResponse(memory), 201);
  });
}
