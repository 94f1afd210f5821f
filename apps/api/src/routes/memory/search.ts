import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { inProcess } from '../../http/in-process';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { IncludeSuperseded, MEMORY_LIMITS, SearchResultSchema, ScopeFilterParam, SourceFilter, TagFilter, boundedText, limitParam, toSearchResult } from './schemas';

const SearchQuery = z.object({
  q: boundedText(1, MEMORY_LIMITS.queryChars).openapi({
    description: `What to look for (1–${MEMORY_LIMITS.queryChars} characters). Words match in any form (rotating ~ rotate) and inside identifiers (invoice ~ createInvoice); "quoted phrases" rank first; the last word and word* match as prefixes.`,
  }),
  limit: limitParam(MEMORY_LIMITS.searchLimit, 'At most this many results'),
  tag: TagFilter,
  source: SourceFilter,
  scope: ScopeFilterParam,
  include_superseded: IncludeSuperseded,
  sort: z.enum(['relevance', 'recent']).optional().openapi({ description: '`recent`: latest changed first; default `relevance`.' }),
  mode: z.enum(['hybrid', 'lexical']).optional().openapi({ description: '`lexical`: words only (default `hybrid`: words and meaning).' }),
});

export const getMemorySearchRoute = authedRoute(['memory:read'], {
  method: 'get',
  path: '/v1/memory/search',
  operationId: 'getMemorySearch',
  tags: ['Memory'],
  summary: 'Search memories',
  description:
    'Finds memories about a topic, yours and your org\'s, by their words (typos corrected from your own words) and by meaning, best first; each result says which words matched or that meaning found it. Use it before answering anything that may depend on earlier work; short words such as "Go" or "Q3" work. No match is an empty list. To browse without a query use getMemory.',
  request: { query: SearchQuery },
  responses: {
    200: {
      description: 'Matching memories, best first.',
      content: {
        'application/json': {
          schema: z.object({
            results: z.array(SearchResultSchema),
            corrected_query: z.string().nullable().openapi({
              description: 'The query with its misspelt words replaced by the words of yours they were also searched as (`pgbouncr` → `pgbouncer`); null when none was.',
            }),
          }),
        },
      },
    },
    ...problemResponses(400, 401, 403),
  },
});

export function registerGetMemorySearch(app: ApiApp) {
  app.openapi(getMemorySearchRoute, async (c) => {
    const { q, limit, tag, source, scope, include_superseded, sort, mode } = c.req.valid('query');
    const { results, correctedQuery } = await c.get('services').memory.search(c.get('principal'), {
      query: q,
      limit,
      tag,
      source,
      scope,
      sort,
      mode,
      includeSuperseded: include_superseded === 'true',
    });
    // Results an agent got over MCP: uses (recall prefers used memories).
    if (inProcess(c)) c.get('services').memoryUse.record(c.get('principal'), results.map((memory) => memory.id));
    return c.json({ results: results.map(toSearchResult), corrected_query: correctedQuery }, 200);
  });
}
