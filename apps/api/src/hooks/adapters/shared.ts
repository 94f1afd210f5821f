/** Validation and assembly shared by the harness adapters. Pure. */
import { createHash } from 'node:crypto';
import { AdapterError, type AdaptedEvent, type EventKind, type EventRole, type HookPayload, type ToolOutcome } from '../types';
import { MAX_CONTENT_CHARS, canonicalJson, capText, str } from './text';

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
  const directory = cwd === undefined ? undefined : projectDirectory(cwd);
  if (directory !== undefined) session.cwd = directory.slice(0, MAX_PATH);
  if (transcriptPath !== undefined) session.transcriptPath = transcriptPath.slice(0, MAX_PATH);
  if (model !== undefined) session.model = model.slice(0, MAX_MODEL);
  return session;
}

/** The first non-empty string of a list of paths (Cursor's `workspace_roots`, Cline's `workspaceRoots`). */
export function firstPath(paths: unknown): string | undefined {
  return Array.isArray(paths) ? paths.find((path): path is string => typeof path === 'string' && path !== '') : undefined;
}

/**
 * One spelling of a working directory for every harness, so the same repository is the same
 * project whichever agent worked in it (recall's "last time in this project" matches it
 * byte for byte): a `file://` URI becomes its path, `\\` becomes `/`, a Windows drive is
 * `c:/…` (Cursor's `/c:/…` too), repeated and trailing separators and `.` segments go.
 * Undefined for an empty result.
 */
export function projectDirectory(path: string): string | undefined {
  let text = path.trim();
  if (/^file:\/\//i.test(text)) {
    text = text.replace(/^file:\/\/(localhost)?/i, '');
    try {
      text = decodeURIComponent(text);
    } catch {
      // A malformed escape stays as it is.
    }
  }
  text = text.replace(/\\/g, '/');
  const unc = text.startsWith('//') && !text.startsWith('///');
  text = text.replace(/\/{2,}/g, '/');
  text = text.replace(/\/\.(?=\/|$)/g, '') || (path.trim().startsWith('/') ? '/' : '');
  text = text.replace(/^\/?([A-Za-z]):(?=\/|$)/, (_, drive: string) => `${drive.toLowerCase()}:`);
  if (text.length > 1) text = text.replace(/\/+$/, '');
  if (/^[a-z]:$/.test(text)) text += '/';
  if (unc) text = `/${text}`;
  return text === '' ? undefined : text;
}

/**
 * A tool id for a harness whose hooks carry none (Gemini CLI, Cline, Copilot, Cursor's shell
 * and MCP hooks): the same for a call and its result, from what both repeat — the tool's
 * name, its input and whatever scopes it (a turn id). It pairs them but does not identify
 * a delivery (the same call made twice has the same id), so such events get no natural key.
 */
export function derivedToolId(...parts: unknown[]): string {
  return `derived:${createHash('sha256').update(canonicalJson(parts), 'utf8').digest('hex').slice(0, 24)}`;
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
  /** The tool id was derived (derivedToolId), not sent by the harness: no natural key from it. */
  derivedToolId?: boolean;
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
    naturalKey: toolUseId === null || parts.derivedToolId === true ? null : clampId(`${base.eventName}:${toolUseId}`, MAX_ID),
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
