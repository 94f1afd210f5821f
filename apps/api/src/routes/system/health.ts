import { createRoute, z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';

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
  responses: { 200: { description: 'Alive.', content: { 'application/json': { schema: HealthSchema } } } },
});

export const getReadyzRoute = createRoute({
  method: 'get',
  path: '/readyz',
  operationId: 'getReadyz',
  tags: ['System'],
  summary: 'Readiness',
  description: 'The database answers and every migration is applied.',
  responses: {
    200: { description: 'Ready to serve.', content: { 'application/json': { schema: ReadinessSchema } } },
    503: { description: 'Not ready (database unreachable or migrations pending).', content: { 'application/json': { schema: ReadinessSchema } } },
  },
});

export function registerHealthRoutes(app: ApiApp) {
  app.openapi(getHealthzRoute, (c) => c.json({ status: 'ok' as const }, 200));
  app.openapi(getReadyzRoute, async (c) => {
    const { ready, ...readiness } = await c.var.services.system.readiness();
    if (!ready) c.header('Retry-After', '5');
    return ready ? c.json({ status: 'ready' as const, ...readiness }, 200) : c.json({ status: 'not_ready' as const, ...readiness }, 503);
  });
}
