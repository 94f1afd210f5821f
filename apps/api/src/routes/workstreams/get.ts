import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { WorkstreamIdParams, WorkstreamSchema, toWorkstreamResponse } from './schemas';

export const getWorkstreamByIdRoute = authedRoute(['workstreams:read'], {
  method: 'get',
  path: '/v1/workstreams/{id}',
  operationId: 'getWorkstreamById',
  tags: ['Workstreams'],
  summary: 'Read a workstream',
  description: 'Reads one recorded agent session by its ws_ id: harness, session id, working directory, event count, activity and archive state. For what happened in it use getWorkstreamEvents (the timeline) or getWorkstreamActions (tool calls and their results).',
  request: { params: WorkstreamIdParams },
  responses: {
    200: { description: 'The workstream.', content: { 'application/json': { schema: WorkstreamSchema } } },
    ...problemResponses(401, 403, 404),
  },
});

export function registerGetWorkstreamById(app: ApiApp) {
  app.openapi(getWorkstreamByIdRoute, async (c) => {
    const workstream = await c.get('services').workstreams.get(c.get('principal'), c.req.valid('param').id);
    return c.json(toWorkstreamResponse(workstream), 200);
  });
}
