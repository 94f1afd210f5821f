import { z } from '@hono/zod-openapi';
import { EVENT_KINDS, EVENT_ROLES, HARNESSES, TOOL_OUTCOMES, type EventKind, type LedgerEvent, type ScoredLedgerEvent, type WorkstreamRow } from '@memory-bank/db';
import type { ToolAction } from '../../services/workstreams';
import { WORKSTREAM_LIMITS } from '../../limits';
import { truncateText } from '../../text';

export const WorkstreamIdParams = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'ws_01JD3W6Q8Z9K2M4N5P6R7S8T9V' }),
});

/** `kind=message,tool_result`: one kind or several, comma-separated. */
export const KindsFilter = z
  .string()
  .transform((value, ctx) => {
    const kinds = value.split(',').map((kind) => kind.trim()).filter(Boolean);
    const unknown = kinds.filter((kind) => !(EVENT_KINDS as readonly string[]).includes(kind));
    if (unknown.length > 0 || kinds.length === 0) {
      ctx.addIssue({ code: 'custom', message: `Must be one or more of ${EVENT_KINDS.join(', ')} (comma-separated)` });
      return z.NEVER;
    }
    return kinds as EventKind[];
  })
  .optional()
  .openapi({ type: 'string', description: `Only these kinds (comma-separated): ${EVENT_KINDS.join(', ')}.` });

export const WorkstreamSchema = z
  .object({
    id: z.string().openapi({ example: 'ws_01JD3W6Q8Z9K2M4N5P6R7S8T9V' }),
    harness: z.enum(HARNESSES),
    native_session_id: z.string().openapi({ description: "The harness's own session id." }),
    cwd: z.string().nullable(),
    project: z.string().nullable().openapi({
      description:
        "What recall's \"last time in this project\" groups the session by: its git remote (`github.com/acme/app`) or repository root as the client named it (Memory-Bank-Project), else its directory.",
      example: 'github.com/acme/app',
    }),
    transcript_path: z.string().nullable(),
    model: z.string().nullable(),
    event_count: z.number().int().openapi({
      description:
        "Events the session recorded; sequences run 1…event_count without gaps, except that events the org's `workstream_retention_days` no longer keeps are gone from the start.",
    }),
    pending_archive: z.number().int().openapi({ description: 'Events not yet sealed into a segment. A sealed segment is stored at once, or retried while object storage is down (`pnpm cli doctor` shows what waits).' }),
    created_at: z.string().openapi({ format: 'date-time' }),
    last_event_at: z.string().openapi({ format: 'date-time' }),
    ended_at: z.string().nullable().openapi({ format: 'date-time' }),
  })
  .openapi('Workstream');

const eventFields = {
  workstream_id: z.string(),
  sequence: z.number().int(),
  event_id: z.string(),
  kind: z.enum(EVENT_KINDS),
  role: z.enum(EVENT_ROLES),
  event: z.string().openapi({ description: "The harness's event name, e.g. PostToolUse." }),
  lifecycle_only: z.boolean().openapi({ description: 'Hidden from the default timeline (include_lifecycle=true shows it).' }),
  tool_use_id: z.string().nullable(),
  tool_name: z.string().nullable(),
  outcome: z.enum(TOOL_OUTCOMES).nullable(),
  content: z.string(),
  occurred_at: z.string().openapi({ format: 'date-time' }),
  received_at: z.string().openapi({ format: 'date-time' }),
  redactions: z.record(z.string(), z.number()).openapi({ description: 'Secrets redacted from the payload, by kind.' }),
  truncations: z.number().int(),
  content_sha256: z.string(),
  payload_sha256: z.string(),
  archived: z.boolean().openapi({ description: 'Sealed into a segment: stored in object storage, or being retried while it is down.' }),
};

export const WorkstreamEventSchema = z.object(eventFields).openapi('WorkstreamEvent');

export const WorkstreamSearchResultSchema = z
  .object({ ...eventFields, score: z.number(), content_truncated: z.boolean() })
  .openapi('WorkstreamSearchResult');

const ActionEventSchema = z.object({ sequence: z.number().int(), event_id: z.string(), content: z.string(), occurred_at: z.string() });

export const ToolActionSchema = z
  .object({
    tool_use_id: z.string().nullable(),
    tool_name: z.string().nullable(),
    outcome: z.enum(['success', 'error', 'no_result']),
    call: ActionEventSchema.nullable().openapi({ description: 'The tool call (PreToolUse…), if the harness reported it.' }),
    result: ActionEventSchema.nullable().openapi({ description: 'Its result (PostToolUse…); null while none arrived.' }),
  })
  .openapi('ToolAction');

export function toWorkstreamResponse(row: WorkstreamRow): z.infer<typeof WorkstreamSchema> {
  return {
    id: row.id,
    harness: row.harness,
    native_session_id: row.nativeSessionId,
    cwd: row.cwd,
    project: row.project,
    transcript_path: row.transcriptPath,
    model: row.model,
    event_count: row.lastSequence,
    pending_archive: row.pendingCount,
    created_at: row.createdAt.toISOString(),
    last_event_at: row.lastEventAt.toISOString(),
    ended_at: row.endedAt?.toISOString() ?? null,
  };
}

export function toEventResponse(row: LedgerEvent): z.infer<typeof WorkstreamEventSchema> {
  return {
    workstream_id: row.workstreamId,
    sequence: row.sequence,
    event_id: row.eventId,
    kind: row.kind,
    role: row.role,
    event: row.event,
    lifecycle_only: row.lifecycleOnly,
    tool_use_id: row.toolUseId,
    tool_name: row.toolName,
    outcome: row.outcome,
    content: row.content,
    occurred_at: row.occurredAt.toISOString(),
    received_at: row.receivedAt.toISOString(),
    redactions: row.metadata.redactions,
    truncations: row.metadata.truncations,
    content_sha256: row.contentSha256,
    payload_sha256: row.payloadSha256,
    archived: row.segmentKey !== null,
  };
}

export function toSearchResultResponse(row: ScoredLedgerEvent): z.infer<typeof WorkstreamSearchResultSchema> {
  const { text, truncated } = truncateText(row.content, WORKSTREAM_LIMITS.searchContentChars, '');
  return {
    ...toEventResponse(row),
    content: text,
    content_truncated: truncated,
    score: row.score,
  };
}

export function toActionResponse(action: ToolAction): z.infer<typeof ToolActionSchema> {
  const ref = (event: LedgerEvent | null) =>
    event ? { sequence: event.sequence, event_id: event.eventId, content: event.content, occurred_at: event.occurredAt.toISOString() } : null;
  return { tool_use_id: action.toolUseId, tool_name: action.toolName, outcome: action.outcome, call: ref(action.call), result: ref(action.result) };
}
