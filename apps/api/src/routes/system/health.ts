import { createRoute, z } from '@hono/zod-openapi';
import { requestDeadlines } from '../../http/deadlines';
import type { ApiApp } from '../../http/env';
import { documentedProblem, problemResponses, ProblemSchema } from '../../http/problems';

/**
 * Readiness answers within a second whatever the database does: a probe that hangs tells
 * an orchestrator nothing, and probes that pile up hold connections the pool needs.
 */
export const READINESS_TIMEOUT_MS = 800;

const HealthSchema = z.object({ status: z.literal('ok') });
const ReadinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  database: z.enum(['ok', 'unreachable']),
  migrations: z.enum(['current', 'pending', 'unknown']),
  pending: z.array(z.string()),
});

export const getHealthzRoute = createRoute({
  method: 'get',
  path: '/healthz',
  operationId: 'getHealthz',
  tags: ['System'],
  summary: 'Liveness',
  description: 'The process is up. Does not touch the database.',
  security: [],
  responses: {
    200: { description: 'Alive.', content: { 'application/json': { schema: HealthSchema } } },
    431: documentedProblem(431),
  },
});

export const getReadyzRoute = createRoute({
  method: 'get',
  path: '/readyz',
  operationId: 'getReadyz',
  tags: ['System'],
  summary: 'Readiness',
  description: `The database answers and every migration is applied. Answers within ${READINESS_TIMEOUT_MS} ms: a database that does not answer by then is a 503 problem.`,
  middleware: [requestDeadlines({ requestMs: READINESS_TIMEOUT_MS })] as const,
  security: [],
  responses: {
    200: { description: 'Ready to serve.', content: { 'application/json': { schema: ReadinessSchema } } },
    ...problemResponses(),
    503: {
      ...documentedProblem(503),
      description: `Not ready: the database is unreachable or migrations are pending (a readiness body), or the database did not answer within ${READINESS_TIMEOUT_MS} ms (a problem).`,
      content: { 'application/json': { schema: ReadinessSchema }, 'application/problem+json': { schema: ProblemSchema } },
    },
  },
});

export function registerHealthRoutes(app: ApiApp) {
  app.openapi(getHealthzRoute, (c) => c.json({ status: 'ok' as const }, 200));
  app.openapi(getReadyzRoute, async (c) => {
    const { ready, ...readiness } = await c.get('services').system.readiness();
    if (!ready) c.header('Retry-After', '5');
    return ready ? c.json({ status: 'ready' as const, ...readiness }, 200) : c.json({ status: 'not_ready' as const, ...readiness }, 503);
  });
}
