import type { ApiApp } from '../../http/env';
import { IdempotencyKeyHeaders, REPLAYED_HEADER, replayedResponseHeader } from '../../http/idempotency';
import { etagResponseHeader } from '../../http/preconditions';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { memoryEtag } from '../../services/preconditions';
import { CreateMemoryBody, CreatedMemorySchema, expiryOf, toCreatedMemoryResponse } from './schemas';

export const postMemoryRoute = authedRoute(['memory:write'], {
  method: 'post',
  path: '/v1/memory',
  operationId: 'postMemory',
  tags: ['Memory'],
  summary: 'Save a memory',
  description:
    'Saves one durable fact, decision or preference for later sessions; searchable at once. Use it when the user states something worth keeping or asks you to remember. An equal save is not stored twice (200, `duplicate: true`). Read `similar` in the answer: if one says the same or an older version, replace it (`supersedes`) or correct it (patchMemoryById) rather than keep both. `ttl_seconds` for what stops being true; `pinned` for what every session needs. Tags, and contexts (the source snippet) for citing. `scope: "org"` (admins) shares it with the team. Secrets are stored redacted. 409 at the org\'s quota or for a memory already superseded. Send an `Idempotency-Key` to make a retry safe.',
  request: {
    headers: IdempotencyKeyHeaders,
    body: { required: true, content: { 'application/json': { schema: CreateMemoryBody } } },
  },
  responses: {
    200: {
      description: 'A duplicate: the live memory this save equals, with the save\'s contexts and tags added.',
      headers: { ...etagResponseHeader, ...replayedResponseHeader },
      content: { 'application/json': { schema: CreatedMemorySchema } },
    },
    201: {
      description: 'The saved memory (or, replayed, the memory the first request with this Idempotency-Key saved).',
      headers: { ...etagResponseHeader, ...replayedResponseHeader },
      content: { 'application/json': { schema: CreatedMemorySchema } },
    },
    ...problemResponses(400, 401, 403, 404, 409, 413, 415, 422),
  },
});

export function registerPostMemory(app: ApiApp) {
  app.openapi(postMemoryRoute, async (c) => {
    const source = c.env?.channel === 'mcp' ? 'mcp' : 'api';
    const key = c.req.valid('header')['idempotency-key'];
    const { expires_at, ttl_seconds, ...body } = c.req.valid('json');
    const expiry = expiryOf({ expires_at, ttl_seconds });
    const input = { ...body, ...(expiry && { expiry }) };
    const { result: memory, replayed } =
      key === undefined
        ? { result: await c.get('services').memory.create(c.get('principal'), input, source), replayed: false }
        : await c.get('services').memory.createOnce(c.get('principal'), input, source, key);
    if (replayed) c.header(REPLAYED_HEADER, 'true');
    c.header('ETag', memoryEtag(memory));
    return c.json(toCreatedMemoryResponse(memory), memory.duplicate ? 200 : 201);
  });
}
