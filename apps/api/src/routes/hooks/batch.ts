import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../http/env';
import { problemOf, problemResponses } from '../../http/problems';
import { authedRoute } from '../../http/route';
import { HOOK_LIMITS } from '../../limits';
import type { BatchItemResult } from '../../services/hooks';
import { HarnessSchema, ProjectFieldSchema, toHookReceiptResponse } from './schemas';


const BatchBody = z
  .object({
    events: z
      .array(
        z.object({
          harness: HarnessSchema,
          // Any JSON here (an item that is not an object is refused alone, the others land); documented as the object it must be.
          payload: z.unknown().openapi({ type: 'object', additionalProperties: true, description: 'The hook payload, as for POST /v1/hooks/{harness} (≤ 1 MiB).' }),
          idempotency_key: z.string().optional().openapi({ description: 'As the Idempotency-Key header of a single post.' }),
          project: ProjectFieldSchema,
          occurred_at: z
            .union([z.number(), z.string()])
            .optional()
            .openapi({
              description:
                "When the event happened (epoch seconds or milliseconds, or ISO 8601), for clients that spool: used when the payload carries no time of its own (Claude Code's and Codex's carry none), instead of the time the batch arrived.",
            }),
        }),
      )
      .min(1)
      .max(HOOK_LIMITS.batchEvents),
  })
  .openapi('HookBatch');

const BatchResultSchema = z
  .object({
    index: z.number().int(),
    status: z.number().int().openapi({ description: '202 recorded; 400 or 413 refused (see detail).' }),
    event_id: z.string().optional(),
    workstream_id: z.string().optional(),
    sequence: z.number().int().optional(),
    duplicate: z.boolean().optional(),
    type: z.string().optional(),
    title: z.string().optional(),
    detail: z.string().optional(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi('HookBatchResult');

export type HookBatchResultResponse = z.infer<typeof BatchResultSchema>;

/** A recorded item is its receipt; a refused one is its problem (without a request id: the batch's answer has it). */
export function toBatchResultResponse(result: BatchItemResult): HookBatchResultResponse {
  if ('receipt' in result) return { index: result.index, status: 202, ...toHookReceiptResponse(result.receipt) };
  return { index: result.index, ...problemOf(result.refused) };
}

export const postHooksBatchRoute = authedRoute(['hooks:write'], {
  method: 'post',
  path: '/v1/hooks/batch',
  operationId: 'postHooksBatch',
  tags: ['Hooks'],
  summary: 'Ingest a batch of hook events',
  description: `Up to ${HOOK_LIMITS.batchEvents} events / ${HOOK_LIMITS.batchBytes / 1024 / 1024} MiB, of any sessions and harnesses, for clients that spool and drain. Each event is handled as a single post would be; the answer has one result per event, in order.`,
  'x-mcp': false,
  request: { body: { required: true, content: { 'application/json': { schema: BatchBody } } } },
  responses: {
    200: { description: 'One result per event.', content: { 'application/json': { schema: z.object({ results: z.array(BatchResultSchema) }) } } },
    ...problemResponses(400, 401, 403, 413, 415),
  },
});

export function registerPostHooksBatch(app: ApiApp) {
  app.openapi(postHooksBatchRoute, async (c) => {
    const { events } = c.req.valid('json');
    const results = await c.get('services').hooks.ingestBatch(
      c.get('principal'),
      events.map((event) => ({
        harness: event.harness,
        payload: event.payload,
        ...(event.idempotency_key !== undefined ? { idempotencyKey: event.idempotency_key } : {}),
        ...(event.occurred_at !== undefined ? { occurredAt: event.occurred_at } : {}),
        ...(event.project !== undefined ? { project: event.project } : {}),
      })),
    );
    return c.json({ results: results.map(toBatchResultResponse) }, 200);
  });
}
