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

const PROJECT_DESCRIPTION =
  "The session's project, so that recall's \"last time in this project\" finds the sessions of the same repository whatever the harness or checkout: the git remote `origin` without credentials (`github.com:acme/app.git`), else the repository's root, else the working directory; percent-encoded UTF-8 (a value without `%` may be sent as it is). The service normalises it (`github.com/acme/app`). Without it, the payload's working directory is the project. Only groups the caller's own sessions; a value it cannot read is ignored, never refused (docs/hooks.md#project-identity).";

/** The Memory-Bank-Project header of the hook routes. */
export const ProjectHeaderSchema = z.string().optional().openapi({ description: PROJECT_DESCRIPTION });

/** A batch item's or a recall request's `project`. */
export const ProjectFieldSchema = z.string().optional().openapi({ description: PROJECT_DESCRIPTION });
