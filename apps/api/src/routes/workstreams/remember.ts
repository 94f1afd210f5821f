import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { Content, SavedMemorySchema, Tags, toSavedMemoryResponse } from '../memory/schemas';
import { WorkstreamIdParams } from './schemas';

export const postWorkstreamEventRememberRoute = authedRoute(['workstreams:read', 'memory:write'], {
  method: 'post',
  path: '/v1/workstreams/{id}/events/{sequence}/remember',
  operationId: 'postWorkstreamEventRemember',
  tags: ['Workstream changes'],
  summary: 'Remember an event',
  description:
    'Saves a memory whose context cites this event (`origin: searched_conversation`, citation `{ workstream_id, sequence, event_id }`). Content defaults to the event text.',
  request: {
    params: WorkstreamIdParams.extend({
      sequence: z.coerce.number().int().min(1).openapi({ param: { name: 'sequence', in: 'path' }, example: 7 }),
    }),
    body: {
      required: false,
      content: { 'application/json': { schema: z.object({ content: Content.optional(), tags: Tags.optional() }).openapi('RememberEvent') } },
    },
  },
  responses: {
    201: { description: 'The memory.', content: { 'application/json': { schema: SavedMemorySchema } } },
    ...problemResponses(400, 401, 403, 404, 413, 415),
  },
});

export function registerPostWorkstreamEventRemember(app: ApiApp) {
  app.openapi(postWorkstreamEventRememberRoute, async (c) => {
    const { id, sequence } = c.req.valid('param');
    const source = c.env?.channel === 'mcp' ? 'mcp' : 'api';
    const memory = await c.get('services').workstreams.remember(c.get('principal'), id, sequence, c.req.valid('json'), source);
    return c.json(toSavedMemoryResponse(memory), 201);
  });
}
