/** Validation and assembly shared by the harness adapters. Pure. */
import { createHash } from 'node:crypto';
import { AdapterError, type AdaptedEvent, type EventKind, type EventRole, type HookPayload, type ToolOutcome } from '../types';
import { MAX_CONTENT_CHARS, capText, str } from './text';

export const MAX_SESSION_ID = 255;
export const MAX_EVENT_NAME = 64;
export const MAX_ID = 128;
const MAX_PATH = 1024;
const MAX_MODEL = 128;

/**
 * `value` if it fits in `max` characters; otherwise a deterministic shortening: its head,
 * `~`, and 16 hex digits of its SHA-256 (so two long ids stay distinct).
 */
export function clampId(value: string, max: number): string {
  if (value.length <= max) return value;
  const digest = createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 16);
  return `${value.slice(0, max - 17)}~${digest}`;
}

/** The harness session id at `field`: a string of 1–255 characters, or an AdapterError. */
export function requireSessionId(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim().length === 0) {
    throw new AdapterError(`The payload has no ${field} (a non-empty string identifying the agent session).`, field);
  }
  if (value.length > MAX_SESSION_ID) {
    throw new AdapterError(`${field} is longer than ${MAX_SESSION_ID} characters.`, field);
  }
  return value;
}

/** The harness event name at `field` (shortened to 64 characters), or an AdapterError. */
export function requireEventName(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim().length === 0) {
    throw new AdapterError(`The payload has no ${field} (a non-empty string naming the hook event).`, field);
  }
  return clampId(value, MAX_EVENT_NAME);
}

/** The session facts worth keeping: non-empty strings only (paths ≤ 1024, model ≤ 128 characters). */
export function sessionFacts(facts: { cwd?: unknown; transcriptPath?: unknown; model?: unknown }): AdaptedEvent['session'] {
  const session: AdaptedEvent['session'] = {};
  const cwd = str(facts.cwd);
  const transcriptPath = str(facts.transcriptPath);
  const model = str(facts.model);
  if (cwd !== undefined) session.cwd = cwd.slice(0, MAX_PATH);
  if (transcriptPath !== undefined) session.transcriptPath = transcriptPath.slice(0, MAX_PATH);
  if (model !== undefined) session.model = model.slice(0, MAX_MODEL);
  return session;
}

export interface EventParts {
  kind: EventKind;
  role: EventRole;
  content?: string;
  lifecycleOnly?: boolean;
  toolUseId?: unknown;
  toolName?: unknown;
  outcome?: ToolOutcome | null;
  endsSession?: boolean;
}

export interface EventBase {
  nativeSessionId: string;
  eventName: string;
  occurredAt: Date | null;
  session: AdaptedEvent['session'];
}

/**
 * Assembles an AdaptedEvent and enforces the contract's limits: content ≤ 64 KiB,
 * tool ids and names ≤ 128 characters, `naturalKey` = `${eventName}:${toolUseId}` when a
 * tool id exists (≤ 128 characters), outcome only on tool results.
 */
export function buildEvent(base: EventBase, parts: EventParts): AdaptedEvent {
  const rawToolUseId = str(parts.toolUseId);
  const rawToolName = str(parts.toolName);
  const toolUseId = rawToolUseId === undefined ? null : clampId(rawToolUseId, MAX_ID);
  const toolName = rawToolName === undefined ? null : clampId(rawToolName, MAX_ID);
  return {
    nativeSessionId: base.nativeSessionId,
    eventName: base.eventName,
    occurredAt: base.occurredAt,
    kind: parts.kind,
    role: parts.role,
    content: capText(parts.content ?? '', MAX_CONTENT_CHARS),
    lifecycleOnly: parts.lifecycleOnly ?? parts.kind === 'lifecycle',
    toolUseId,
    toolName,
    outcome: parts.kind === 'tool_result' ? (parts.outcome ?? 'success') : null,
    naturalKey: toolUseId === null ? null : clampId(`${base.eventName}:${toolUseId}`, MAX_ID),
    endsSession: parts.endsSession ?? false,
    session: base.session,
  };
}

/** Fields every Claude-Code-style payload carries; left out of rendered lifecycle content. */
export const COMMON_HOOK_FIELDS: ReadonlySet<string> = new Set([
  'session_id',
  'transcript_path',
  'cwd',
  'permission_mode',
  'hook_event_name',
  'prompt_id',
  'effort',
  'model',
  'turn_id',
  'agent_id',
  'agent_type',
]);

export type { HookPayload };
