/**
 * `generic`: a minimal documented shape for any other agent or script.
 *
 *   {
 *     "session_id": "…",            // required, 1–255 chars: one agent session
 *     "event": "prompt",            // required, ≤ 64 chars: your event name
 *     "kind": "message",            // optional: message | tool_call | tool_result | compaction |
 *                                   //   checkpoint | annotation | lifecycle (inferred when absent)
 *     "role": "user",               // optional: user | assistant | tool | system
 *     "text": "…",                  // the searchable text (prompt, reply, note…)
 *     "tool_name": "Bash", "tool_use_id": "call_1",
 *     "tool_input": { … } | "…",    // rendered like Claude Code's tool_input
 *     "tool_output": { … } | "…",   // rendered like Claude Code's tool_response
 *     "error": "…",                 // a failed tool: outcome error
 *     "outcome": "success" | "error",
 *     "lifecycle_only": false,      // hide from the default timeline
 *     "ends_session": false,        // this event ends the session
 *     "occurred_at": "2025-01-01T12:00:00Z" | 1735732800 | 1735732800000,
 *     "cwd": "…", "model": "…", "transcript_path": "…"
 *   }
 *
 * Inference when `kind` is absent: an `event` equal to a kind name is that kind; `error` or
 * `tool_output` → tool_result; `tool_name`/`tool_input` → tool_call; `role` user/assistant
 * with text → message; other text → annotation; nothing → lifecycle. Default roles:
 * message → user, tool_call → assistant, tool_result → tool, others → system.
 * Wrong-typed optional fields are ignored.
 */
import { EVENT_ROLES, HOOK_EVENT_KINDS, type EventRole, type HookEventKind, type HarnessAdapter, type HookPayload } from '../types';
import { buildEvent, requireEventName, requireSessionId, sessionFacts } from './shared';
import { parseTimestamp, renderToolOutput, str, toolCallContent, toolResultContent } from './text';

// `recall` is not among them: only Memory Bank records what it recalled.
const isKind = (value: unknown): value is HookEventKind => typeof value === 'string' && (HOOK_EVENT_KINDS as readonly string[]).includes(value);
const isRole = (value: unknown): value is EventRole => typeof value === 'string' && (EVENT_ROLES as readonly string[]).includes(value);

function inferKind(payload: HookPayload, eventName: string, role: EventRole | undefined, text: string | undefined): HookEventKind {
  if (isKind(payload.kind)) return payload.kind;
  if (isKind(eventName)) return eventName;
  if (str(payload.error) !== undefined || payload.tool_output !== undefined) return 'tool_result';
  if (str(payload.tool_name) !== undefined || payload.tool_input !== undefined) return 'tool_call';
  if (text !== undefined && (role === 'user' || role === 'assistant')) return 'message';
  if (text !== undefined) return 'annotation';
  return 'lifecycle';
}

const DEFAULT_ROLE: Record<HookEventKind, EventRole> = {
  message: 'user',
  tool_call: 'assistant',
  tool_result: 'tool',
  compaction: 'system',
  checkpoint: 'system',
  annotation: 'system',
  lifecycle: 'system',
};

const ENDING_EVENTS = /^(session[._-]?end(ed)?|SessionEnd)$/i;

export const genericAdapter: HarnessAdapter = (payload) => {
  const nativeSessionId = requireSessionId(payload.session_id, 'session_id');
  const eventName = requireEventName(payload.event, 'event');
  const role = isRole(payload.role) ? payload.role : undefined;
  const text = str(payload.text);
  const kind = inferKind(payload, eventName, role, text);
  const toolName = str(payload.tool_name) ?? null;
  const error = str(payload.error);
  const outcome = payload.outcome === 'success' || payload.outcome === 'error' ? payload.outcome : error !== undefined ? 'error' : 'success';

  let content: string;
  if (kind === 'tool_call') {
    content = toolCallContent(toolName, payload.tool_input);
    if (text !== undefined) content += `\n${text}`;
  } else if (kind === 'tool_result') {
    content =
      outcome === 'error'
        ? toolResultContent(toolName, payload.tool_input, { error: error ?? (renderToolOutput(payload.tool_output) || 'failed') })
        : toolResultContent(toolName, payload.tool_input, { output: payload.tool_output ?? text });
  } else {
    content = text ?? '';
  }

  return buildEvent(
    {
      nativeSessionId,
      eventName,
      occurredAt: parseTimestamp(payload.occurred_at),
      session: sessionFacts({ cwd: payload.cwd, transcriptPath: payload.transcript_path, model: payload.model }),
    },
    {
      kind,
      role: role ?? DEFAULT_ROLE[kind],
      content,
      lifecycleOnly: typeof payload.lifecycle_only === 'boolean' ? payload.lifecycle_only : kind === 'lifecycle' || kind === 'tool_call',
      toolName,
      toolUseId: payload.tool_use_id,
      outcome,
      endsSession: typeof payload.ends_session === 'boolean' ? payload.ends_session : ENDING_EVENTS.test(eventName),
    },
  );
};
