import { z } from '@hono/zod-openapi';
import { SEGMENT_CONTENT_TYPE } from '../../archive/segment';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { WorkstreamIdParams } from './schemas';

export const getWorkstreamRawRoute = authedRoute(['workstreams:read'], {
  method: 'get',
  path: '/v1/workstreams/{id}/raw',
  operationId: 'getWorkstreamRaw',
  tags: ['Workstreams'],
  summary: 'Download the raw archive',
  description:
    'The sanitized payloads of every event as JSONL envelopes `{ v, event_id, workstream_id, sequence, harness, event, occurred_at, received_at, sha256, payload }`, in sequence order: archived segments from object storage, then events not archived yet.',
  'x-mcp': false,
  request: { params: WorkstreamIdParams },
  responses: {
    200: { description: 'JSONL, streamed.', content: { [SEGMENT_CONTENT_TYPE]: { schema: z.string() } } },
    ...problemResponses(401, 403, 404),
  },
});

export function registerGetWorkstreamRaw(app: ApiApp) {
  app.openapi(getWorkstreamRawRoute, async (c) => {
    const stream = await c.get('services').workstreams.raw(c.get('principal'), c.req.valid('param').id);
    // zod-openapi types `application/x-ndjson` as if it were JSON (it ends in "json"),
    // which no stream satisfies; the response is exactly what the route declares.
    return c.body(stream, 200, { 'Content-Type': SEGMENT_CONTENT_TYPE }) as never;
  });
}
