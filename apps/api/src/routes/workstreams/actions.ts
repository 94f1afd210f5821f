import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { limitParam } from '../memory/schemas';
import { ToolActionSchema, WorkstreamIdParams, toActionResponse } from './schemas';

export const getWorkstreamActionsRoute = authedRoute(['workstreams:read'], {
  method: 'get',
  path: '/v1/workstreams/{id}/actions',
  operationId: 'getWorkstreamActions',
  tags: ['Workstreams'],
  summary: 'What the agent did',
  description:
    'Each tool call paired with its result by tool_use_id, in the order the calls were made, with an outcome: success, error, or no_result (no result arrived).',
  request: {
    params: WorkstreamIdParams,
    query: z.object({
      after: z.coerce.number().int().min(0).optional().openapi({ description: '`next_after` of the previous page.' }),
      limit: limitParam(500, 'Page size'),
    }),
  },
  responses: {
    200: {
      description: 'A page of actions.',
      content: { 'application/json': { schema: z.object({ actions: z.array(ToolActionSchema), next_after: z.number().int().nullable() }) } },
    },
    ...problemResponses(400, 401, 403, 404),
  },
});

export function registerGetWorkstreamActions(app: ApiApp) {
  app.openapi(getWorkstreamActionsRoute, async (c) => {
    const query = c.req.valid('query');
    const page = await c.get('services').workstreams.actions(c.get('principal'), c.req.valid('param').id, {
      limit: query.limit,
      ...(query.after !== undefined ? { after: query.after } : {}),
    });
    return c.json({ actions: page.actions.map(toActionResponse), next_after: page.nextAfter }, 200);
  });
}
