import { z } from '@hono/zod-openapi';
import { HARNESSES } from '@memory-bank/db';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { limitParam } from '../memory/schemas';
import { WorkstreamSchema, toWorkstreamResponse } from './schemas';

export const getWorkstreamsRoute = authedRoute(['workstreams:read'], {
  method: 'get',
  path: '/v1/workstreams',
  operationId: 'getWorkstreams',
  tags: ['Workstreams'],
  summary: 'List workstreams',
  description: 'Lists your recorded agent sessions (one workstream per harness session, ws_ ids), most recently active first; pages follow `next_cursor` until it is null. Use it to find an earlier session to look into; to find sessions by what happened in them use getWorkstreamsSearch.',
  request: {
    query: z.object({
      limit: limitParam(100, 'Page size'),
      cursor: z.string().min(1).max(512).optional().openapi({ description: '`next_cursor` of the previous page.' }),
      harness: z.enum(HARNESSES).optional().openapi({ description: 'Only sessions of this harness.' }),
    }),
  },
  responses: {
    200: {
      description: 'A page of workstreams.',
      content: { 'application/json': { schema: z.object({ workstreams: z.array(WorkstreamSchema), next_cursor: z.string().nullable() }) } },
    },
    ...problemResponses(400, 401, 403),
  },
});

export function registerGetWorkstreams(app: ApiApp) {
  app.openapi(getWorkstreamsRoute, async (c) => {
    const page = await c.get('services').workstreams.list(c.get('principal'), c.req.valid('query'));
    return c.json({ workstreams: page.workstreams.map(toWorkstreamResponse), next_cursor: page.nextCursor }, 200);
  });
}
