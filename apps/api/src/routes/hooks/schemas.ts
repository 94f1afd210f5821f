import { z } from '@hono/zod-openapi';
import { HARNESSES } from '@memory-bank/db';
import type { HookReceipt } from '../../services/hooks';

export const HookPayloadSchema = z
  .record(z.string(), z.unknown())
  .openapi('HookPayload', {
    description:
      "The hook's JSON input exactly as the harness gives it to a hook command (Claude Code: session_id, transcript_path, cwd, hook_event_name, …). At most 1 MiB. See docs/hooks.md.",
  });

export const HookReceiptSchema = z
  .object({
    event_id: z.string().openapi({ description: 'Idempotency-Key if sent; else derived from the harness ids or the payload hash.' }),
    workstream_id: z.string(),
    sequence: z.number().int().openapi({ description: 'Position in the workstream: gapless, strictly increasing.' }),
    duplicate: z.boolean().openapi({ description: 'True when this delivery was already recorded (the original sequence is returned).' }),
  })
  .openapi('HookReceipt');

export type HookReceiptResponse = z.infer<typeof HookReceiptSchema>;

export function toHookReceiptResponse(receipt: HookReceipt): HookReceiptResponse {
  return { event_id: receipt.eventId, workstream_id: receipt.workstreamId, sequence: receipt.sequence, duplicate: receipt.duplicate };
}

export const HarnessSchema = z.enum(HARNESSES);
