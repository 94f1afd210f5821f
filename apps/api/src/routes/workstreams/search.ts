import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { WORKSTREAM_LIMITS } from '../../limits';
import { MEMORY_LIMITS, boundedText, limitParam } from '../memory/schemas';
import { KindsFilter, WorkstreamSearchResultSchema, toSearchResultResponse } from './schemas';

export const getWorkstreamsSearchRoute = authedRoute(['workstreams:read'], {
  method: 'get',
  path: '/v1/workstreams/search',
  operationId: 'getWorkstreamsSearch',
  tags: ['Workstreams'],
  summary: 'Search agent sessions',
  description:
    'Full-text search over the events of your sessions (prompts, tool calls and results, notes), with the same rules as memory search: best match first, short words found, operators treated as text. Lifecycle events are searched too.',
  request: {
    query: z.object({
      q: boundedText(1, MEMORY_LIMITS.queryChars).openapi({ description: 'What to look for, 1–512 characters.' }),
      workstream_id: z.string().min(1).max(64).optional().openapi({ description: 'Only within this workstream.' }),
      kind: KindsFilter,
      limit: limitParam(MEMORY_LIMITS.searchLimit, 'At most this many results'),
    }),
  },
  responses: {
    200: {
      description: `Matching events, best first (content cut at ${WORKSTREAM_LIMITS.searchContentChars} characters; read the event for all of it).`,
      content: { 'application/json': { schema: z.object({ results: z.array(WorkstreamSearchResultSchema) }) } },
    },
    ...problemResponses(400, 401, 403),
  },
});

export function registerGetWorkstreamsSearch(app: ApiApp) {
  app.openapi(getWorkstreamsSearchRoute, async (c) => {
    const { q, workstream_id, kind, limit } = c.req.valid('query');
    const results = await c.get('services').workstreams.search(c.get('principal'), {
      query: q,
      limit,
      ...(workstream_id ? { workstreamId: workstream_id } : {}),
      ...(kind ? { kinds: kind } : {}),
    });
    return c.json({ results: results.map(toSearchResultResponse) }, 200);
  });
}
