import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { IncludeSuperseded, MEMORY_LIMITS, MemorySchema, ScopeFilterParam, SourceFilter, TagFilter, limitParam, toMemoryResponse } from './schemas';

const ListQuery = z.object({
  limit: limitParam(MEMORY_LIMITS.listLimit, 'Page size'),
  cursor: z.string().min(1).max(512).optional().openapi({ description: '`next_cursor` of the previous page.' }),
  tag: TagFilter,
  source: SourceFilter,
  scope: ScopeFilterParam,
  include_superseded: IncludeSuperseded,
});

export const getMemoryRoute = authedRoute(['memory:read'], {
  method: 'get',
  path: '/v1/memory',
  operationId: 'getMemory',
  tags: ['Memory'],
  summary: 'List memories',
  description: "Lists your memories and your org's shared ones, newest first, optionally by tag, source or scope; follow `next_cursor` until null. Use it to browse recent memories; to find memories about a topic use getMemorySearch.",
  request: { query: ListQuery },
  responses: {
    200: {
      description: 'A page of memories.',
      content: {
        'application/json': {
          schema: z.object({
            memories: z.array(MemorySchema),
            next_cursor: z.string().nullable().openapi({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
          }),
        },
      },
    },
    ...problemResponses(400, 401, 403),
  },
});

export function registerGetMemory(app: ApiApp) {
  app.openapi(getMemoryRoute, async (c) => {
    const { include_superseded, ...query } = c.req.valid('query');
    const page = await c.get('services').memory.list(c.get('principal'), { ...query, includeSuperseded: include_superseded === 'true' });
    return c.json({ memories: page.memories.map(toMemoryResponse), next_cursor: page.nextCursor }, 200);
  });
}
