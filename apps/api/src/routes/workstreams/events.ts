import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { limitParam } from '../memory/schemas';
import { KindsFilter, WorkstreamEventSchema, WorkstreamIdParams, toEventResponse } from './schemas';

const EventsQuery = z.object({
  kind: KindsFilter,
  event: z.string().min(1).max(64).optional().openapi({ description: "Only this harness event name, e.g. PostToolUseFailure." }),
  order: z.enum(['asc', 'desc']).default('asc').openapi({ description: 'By sequence (default asc: oldest first).' }),
  after: z.coerce.number().int().min(0).optional().openapi({ description: 'Sequence cursor: events after it in the chosen order (`next_after` of the previous page).' }),
  limit: limitParam(500, 'Page size'),
  include_lifecycle: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    // A boolean query parameter (sent as true/false), so MCP tools take a JSON boolean.
    .openapi({ type: 'boolean', default: false, description: 'Include lifecycle-only events (SessionStart, PreToolUse, Stop…). Default false.' }),
});

export const getWorkstreamEventsRoute = authedRoute(['workstreams:read'], {
  method: 'get',
  path: '/v1/workstreams/{id}/events',
  operationId: 'getWorkstreamEvents',
  tags: ['Workstreams'],
  summary: "Read a workstream's events",
  description: 'Reads the timeline of one recorded session in sequence order: prompts, replies and tool events (lifecycle-only events hidden unless include_lifecycle=true), paged with `after`. Use it to see what was said; for tool calls paired with their results use getWorkstreamActions.',
  request: { params: WorkstreamIdParams, query: EventsQuery },
  responses: {
    200: {
      description: 'A page of events.',
      content: {
        'application/json': {
          schema: z.object({
            events: z.array(WorkstreamEventSchema),
            next_after: z.number().int().nullable().openapi({ description: 'Pass as `after` for the next page; null on the last page.' }),
          }),
        },
      },
    },
    ...problemResponses(400, 401, 403, 404),
  },
});

export function registerGetWorkstreamEvents(app: ApiApp) {
  app.openapi(getWorkstreamEventsRoute, async (c) => {
    const query = c.req.valid('query');
    const page = await c.get('services').workstreams.events(c.get('principal'), c.req.valid('param').id, {
      order: query.order,
      limit: query.limit,
      includeLifecycle: query.include_lifecycle,
      ...(query.kind ? { kinds: query.kind } : {}),
      ...(query.event ? { event: query.event } : {}),
      ...(query.after !== undefined ? { after: query.after } : {}),
    });
    return c.json({ events: page.events.map(toEventResponse), next_after: page.nextAfter }, 200);
  });
}
