import { z } from '@hono/zod-openapi';
import { HARNESSES } from '@memory-bank/db';
import type { RecallResult } from '../../services/recall';
import { RECALL_LIMITS } from '../../limits';
import { boundedText } from '../memory/schemas';
import { ProjectFieldSchema } from '../hooks/schemas';

export const RecallBody = z
  .object({
    session_id: boundedText(1, 255).openapi({ description: "The agent session the recall is for: the harness's own session id (Claude Code `session_id`, OpenCode `sessionID`)." }),
    // Optional in the document as in the body; the route takes `generic` when it is absent.
    harness: z.enum(HARNESSES).optional().openapi({ description: 'The harness of that session (default `generic`).' }),
    trigger: z.enum(['session_start', 'prompt']).openapi({
      description: '`session_start`: memories about the project (repository, directory, where the last session there left off) and the "last time in this project" note; `prompt`: memories relevant to `prompt`.',
    }),
    prompt: boundedText(1, RECALL_LIMITS.promptChars).optional().openapi({ description: `The user's prompt (required for trigger \`prompt\`), up to ${RECALL_LIMITS.promptChars} characters.` }),
    cwd: boundedText(1, RECALL_LIMITS.cwdChars).optional().openapi({ description: 'The working directory of the session: previous sessions there give the note.' }),
    project: ProjectFieldSchema,
    repository: boundedText(1, RECALL_LIMITS.repositoryChars).optional().openapi({ description: "The repository's name, when the caller knows it (otherwise the directory's name is used)." }),
    max_chars: z
      .number()
      .int()
      .min(RECALL_LIMITS.minBudgetChars)
      .max(RECALL_LIMITS.maxBudgetChars)
      .optional()
      .openapi({ description: `At most this many characters of context; never more than the API key's recall budget (default ${RECALL_LIMITS.defaultBudgetChars}).` }),
  })
  .superRefine((body, ctx) => {
    if (body.trigger === 'prompt' && body.prompt === undefined) ctx.addIssue({ code: 'custom', path: ['prompt'], message: 'Required when trigger is prompt' });
  })
  .openapi('RecallRequest');

export const RecallSchema = z
  .object({
    context: z.string().openapi({ description: "The text to add to the model's context, within the budget; empty when there is nothing new to recall." }),
    memories: z
      .array(
        z.object({
          id: z.string().openapi({ example: 'mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V' }),
          scope: z.enum(['user', 'org']),
          score: z.number().openapi({ description: "Relevance to the recall's query, 0–1 as in search (0 for a pinned memory that did not match it)." }),
          truncated: z.boolean().openapi({ description: 'Only the start of the memory fitted.' }),
          pinned: z.boolean().openapi({ description: 'A pinned memory: at session start, pinned memories come first.' }),
        }),
      )
      .openapi({ description: 'The memories in `context`, in order, each cited there as `[mem_…]`: pinned ones first at session start, then by rank (docs/hooks.md#recall-ranking-and-pins).' }),
    last_session: z
      .object({
        workstream_id: z.string(),
        last_event_at: z.string().openapi({ format: 'date-time' }),
        prompt: z.string().nullable(),
        reply: z.string().nullable(),
      })
      .nullable()
      .openapi({ description: 'The previous session in the same project, when its note is in `context` (once per session).' }),
    budget_chars: z.number().int(),
    already_shown: z.number().int().openapi({ description: 'Matching memories left out because this session was already shown them.' }),
    recorded: z
      .object({ workstream_id: z.string(), sequence: z.number().int(), event_id: z.string() })
      .nullable()
      .openapi({ description: 'The `recall` event of the session that records what was shown; null when `context` is empty.' }),
  })
  .openapi('Recall');

export function toRecallResponse(result: RecallResult): z.infer<typeof RecallSchema> {
  return {
    context: result.text,
    memories: result.memories.map(({ id, scope, score, truncated, pinned }) => ({ id, scope, score, truncated, pinned: pinned ?? false })),
    last_session: result.note && {
      workstream_id: result.note.workstreamId,
      last_event_at: result.note.lastEventAt.toISOString(),
      prompt: result.note.prompt,
      reply: result.note.reply,
    },
    budget_chars: result.budgetChars,
    already_shown: result.alreadyShown,
    recorded: result.recorded && { workstream_id: result.recorded.workstreamId, sequence: result.recorded.sequence, event_id: result.recorded.eventId },
  };
}
