/**
 * The vocabulary of hook ingestion, shared by the adapters, the ingest service and the
 * ledger. A hook delivery (one JSON payload from one harness) becomes exactly one ledger
 * event.
 */

// The enumerations are column types of the ledger, so packages/db owns them.
export { EVENT_KINDS, EVENT_ROLES, HARNESSES, HOOK_EVENT_KINDS, TOOL_OUTCOMES } from '@memory-bank/db';
export type { EventKind, EventRole, Harness, HookEventKind, ToolOutcome } from '@memory-bank/db';
import type { EventKind, EventRole, ToolOutcome } from '@memory-bank/db';

/** A JSON object as a harness sends it (already sanitized when adapters see it). */
export type HookPayload = Record<string, unknown>;

/** What an adapter reads out of one payload. */
export interface AdaptedEvent {
  /** The harness's own session id (Claude Code `session_id`, OpenCode `sessionID`, …). 1–255 chars. */
  nativeSessionId: string;
  /** The harness's event name as sent (`PostToolUse`, `tool.execute.after`, …), ≤ 64 chars. */
  eventName: string;
  /** When it happened, if the payload says; otherwise null (the server uses the receive time). */
  occurredAt: Date | null;
  kind: EventKind;
  role: EventRole;
  /** Human-readable, searchable text: prompt text; tool name + input; tool output or error; message. May be ''. */
  content: string;
  /** Kept and searchable, but hidden from the default timeline (SessionStart, PreToolUse, Stop, unknown events…). */
  lifecycleOnly: boolean;
  /** Pairs a tool call with its result within a session (Claude Code `tool_use_id`, OpenCode `callID`). ≤ 128 chars. */
  toolUseId: string | null;
  toolName: string | null;
  /** For tool results: did the tool succeed? null for every other kind. */
  outcome: ToolOutcome | null;
  /**
   * A key that identifies this delivery from the harness's own ids, when it has them
   * (e.g. `PostToolUse:toolu_01ABC`); null when only a content hash can (the ingest
   * service then uses SHA-256 of the canonical payload). ≤ 128 chars.
   */
  naturalKey: string | null;
  /** This event ends the session (Claude Code SessionEnd…): its segment is sealed at once. */
  endsSession: boolean;
  /** Facts about the session worth keeping on the workstream, when present. */
  session: { cwd?: string; transcriptPath?: string; model?: string };
}

/** A payload the adapter cannot place (no session id, wrong types): answered with 400. */
export class AdapterError extends Error {
  override name = 'AdapterError';
  constructor(
    message: string,
    /** The offending field, e.g. `session_id`. */
    readonly field: string,
  ) {
    super(message);
  }
}

/** Pure and deterministic: the ledger rebuild runs it again on archived payloads and must get the same event. */
export type HarnessAdapter = (payload: HookPayload) => AdaptedEvent;
