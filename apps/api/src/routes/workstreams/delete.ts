import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { WorkstreamIdParams } from './schemas';

export const deleteWorkstreamByIdRoute = authedRoute(['workstreams:write'], {
  method: 'delete',
  path: '/v1/workstreams/{id}',
  operationId: 'deleteWorkstreamById',
  tags: ['Workstream changes'],
  summary: 'Delete a workstream',
  description:
    'Deletes the session: its ledger rows at once (gone from search when this returns), then its archived objects. Objects that cannot be deleted right away are retried until they are.',
  request: { params: WorkstreamIdParams },
  responses: {
    204: { description: 'Deleted.' },
    ...problemResponses(401, 403, 404),
  },
});

export function registerDeleteWorkstreamById(app: ApiApp) {
  app.openapi(deleteWorkstreamByIdRoute, async (c) => {
    await c.get('services').workstreams.remove(c.get('principal'), c.req.valid('param').id);
    return c.body(null, 204);
  });
}
