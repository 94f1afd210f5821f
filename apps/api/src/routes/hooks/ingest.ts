import { z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { ApiApp, AppEnv } from '../../http/env';
import { problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { HarnessSchema, HookPayloadSchema, HookReceiptSchema, ProjectHeaderSchema, toHookReceiptResponse } from './schemas';

/**
 * A hook is `curl --data-binary @-`: whatever content type the sender sets (curl's
 * default is form-encoded), the body is the harness's JSON.
 */
const bodyIsJson: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!/^application\/([a-z.+-]+\+)?json/i.test(c.req.header('content-type') ?? '')) {
    const headers = new Headers(c.req.raw.headers);
    headers.set('content-type', 'application/json');
    c.req.raw = new Request(c.req.raw, { headers });
  }
  await next();
};

export const postHookRoute = authedRoute(['hooks:write'], {
  method: 'post',
  path: '/v1/hooks/{harness}',
  operationId: 'postHook',
  tags: ['Hooks'],
  summary: 'Ingest one hook event',
  description:
    'Records one lifecycle-hook payload of a coding agent. The payload is sanitized (secrets redacted), appended to its session\'s workstream with the next sequence number, and archived. A retried delivery (same Idempotency-Key, same tool_use_id and event, or byte-identical payload) answers `duplicate: true` with the original sequence.',
  'x-mcp': false,
  request: {
    params: z.object({ harness: HarnessSchema.openapi({ param: { name: 'harness', in: 'path' } }) }),
    headers: z.object({
      'idempotency-key': z.string().optional().openapi({ description: 'Unique per delivery (1–128 visible ASCII characters); reuse it when retrying.' }),
      'memory-bank-project': ProjectHeaderSchema,
    }),
    body: { required: true, content: { 'application/json': { schema: HookPayloadSchema } } },
  },
  responses: {
    202: { description: 'Recorded (or already recorded).', content: { 'application/json': { schema: HookReceiptSchema } } },
    ...problemResponses(400, 401, 403, 413),
  },
});

export function registerPostHook(app: ApiApp) {
  app.use(postHookRoute.getRoutingPath(), async (c, next) => (c.req.method === 'POST' ? bodyIsJson(c, next) : next()));
  app.openapi(postHookRoute, async (c) => {
    const headers = c.req.valid('header');
    const receipt = await c.get('services').hooks.ingest(c.get('principal'), {
      harness: c.req.valid('param').harness,
      payload: c.req.valid('json'),
      ...(headers['idempotency-key'] !== undefined ? { idempotencyKey: headers['idempotency-key'] } : {}),
      ...(headers['memory-bank-project'] !== undefined ? { project: headers['memory-bank-project'] } : {}),
    });
    return c.json(toHookReceiptResponse(receipt), 202);
  });
}
