import { z } from '@hono/zod-openapi';
import { MEMORY_SCOPES, type MemoryMetadata } from '@memory-bank/db';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { limitParam } from '../memory/schemas';
import { UserIdParams } from '../org/schemas';

const MemoryMetadataSchema = z
  .object({
    id: z.string(),
    scope: z.enum(MEMORY_SCOPES),
    tags: z.array(z.string()),
    size: z.number().int().openapi({ description: 'Content size in bytes.' }),
    context_count: z.number().int(),
    created_at: z.string().openapi({ format: 'date-time' }),
    updated_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('MemoryMetadata', { description: 'What an admin may know of a memory: never its content or snippets.' });

export const getAdminMemberMemoriesRoute = authedRoute(['admin'], {
  method: 'get',
  path: '/v1/admin/members/{user_id}/memories',
  operationId: 'getAdminMemberMemories',
  tags: ['Admin'],
  summary: "List a member's memories (metadata only)",
  description: "Admins and owners see what a member stores — ids, sizes, tags, dates, context counts — never the content. Newest first.",
  request: {
    params: UserIdParams,
    query: z.object({ limit: limitParam(100, 'Page size'), cursor: z.string().min(1).max(512).optional() }),
  },
  responses: {
    200: {
      description: 'A page of metadata.',
      content: { 'application/json': { schema: z.object({ memories: z.array(MemoryMetadataSchema), next_cursor: z.string().nullable() }) } },
    },
    ...problemResponses(400, 401, 403, 404),
  },
});

const toMetadata = (row: MemoryMetadata) => ({
  id: row.id,
  scope: row.scope,
  tags: row.tags,
  size: row.size,
  context_count: row.contextCount,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export function registerGetAdminMemberMemories(app: ApiApp) {
  app.openapi(getAdminMemberMemoriesRoute, async (c) => {
    const page = await c.get('services').members.memberMemories(c.get('principal'), c.req.valid('param').user_id, c.req.valid('query'));
    return c.json({ memories: page.memories.map(toMetadata), next_cursor: page.nextCursor }, 200);
  });
}
