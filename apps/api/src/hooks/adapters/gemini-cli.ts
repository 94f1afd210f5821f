/**
 * Gemini CLI (google-gemini/gemini-cli, docs/hooks/reference.md). `settings.json` (user
 * `~/.gemini/`, project `.gemini/`) holds `hooks: { Event: [{ matcher, hooks: [{ type:
 * "command", command, timeout }] }] }`; each command gets one JSON object on stdin with
 * `session_id`, `transcript_path`, `cwd`, `hook_event_name` and `timestamp` (ISO 8601), and
 * per event:
 *
 *   SessionStart   source (startup | resume | clear)
 *   SessionEnd     reason (exit | clear | logout | prompt_input_exit | other)
 *   BeforeAgent    prompt                                  → the user's prompt
 *   AfterAgent     prompt, prompt_response, stop_hook_active → the turn's reply
 *   BeforeTool     tool_name, tool_input, mcp_context?
 *   AfterTool      tool_name, tool_input, tool_response { llmContent, returnDisplay, error? }
 *   Notification   notification_type (ToolPermission), message, details
 *   PreCompress    trigger (auto | manual)
 *   BeforeModel, AfterModel, BeforeToolSelection (llm_request…) and newer ones: lifecycle.
 *
 * Tool hooks carry no call id: a call and its result are paired by a derived id (the tool's
 * name and input), so the same call repeated in a session pairs with each result.
 */
import type { AdaptedEvent, HarnessAdapter, HookPayload } from '../types';
import { COMMON_HOOK_FIELDS, buildEvent, derivedToolId, requireEventName, requireSessionId, sessionFacts, type EventBase, type EventParts } from './shared';
import { isRecord, parseTimestamp, renderFields, str, toolCallContent, toolResultContent } from './text';

const GEMINI_COMMON_FIELDS: ReadonlySet<string> = new Set([...COMMON_HOOK_FIELDS, 'timestamp']);

/** An error as Gemini reports it: a string, or `{ message, type }`. */
function errorText(error: unknown): string | undefined {
  if (typeof error === 'string') return str(error);
  if (isRecord(error)) return str(error.message) ?? str(error.type);
  return undefined;
}

function parts(payload: HookPayload, eventName: string): EventParts {
  const toolName = str(payload.tool_name) ?? null;
  const tool = { toolName, toolUseId: toolName === null ? undefined : derivedToolId(toolName, payload.tool_input ?? null), derivedToolId: true };
  switch (eventName) {
    case 'BeforeAgent':
      return { kind: 'message', role: 'user', content: str(payload.prompt) ?? '' };

    case 'AfterAgent': {
      const reply = str(payload.prompt_response);
      if (reply !== undefined) return { kind: 'message', role: 'assistant', content: reply };
      return { kind: 'checkpoint', role: 'system', content: '', lifecycleOnly: true };
    }

    case 'BeforeTool':
      return { kind: 'tool_call', role: 'assistant', content: toolCallContent(toolName, payload.tool_input), lifecycleOnly: true, ...tool };

    case 'AfterTool': {
      const response: Record<string, unknown> = isRecord(payload.tool_response) ? payload.tool_response : { llmContent: payload.tool_response };
      const error = errorText(response.error);
      if (error !== undefined) {
        return { kind: 'tool_result', role: 'tool', outcome: 'error', content: toolResultContent(toolName, payload.tool_input, { error }), ...tool };
      }
      const output = response.llmContent ?? response.returnDisplay;
      return { kind: 'tool_result', role: 'tool', outcome: 'success', content: toolResultContent(toolName, payload.tool_input, { output }), ...tool };
    }

    case 'Notification': {
      const type = str(payload.notification_type);
      const message = str(payload.message) ?? '';
      return { kind: 'annotation', role: 'system', content: type === undefined ? message : `${message} (${type})` };
    }

    case 'PreCompress':
      return { kind: 'compaction', role: 'system', content: `Compressing context (${str(payload.trigger) ?? 'unknown'})`, lifecycleOnly: true };

    case 'SessionStart':
      return { kind: 'lifecycle', role: 'system', content: `Session started (${str(payload.source) ?? 'unknown'})` };

    case 'SessionEnd':
      return { kind: 'lifecycle', role: 'system', content: `Session ended (${str(payload.reason) ?? 'unknown'})`, endsSession: true };

    default:
      // BeforeModel, AfterModel, BeforeToolSelection and newer events: kept, never refused.
      return { kind: 'lifecycle', role: 'system', content: renderFields(payload, GEMINI_COMMON_FIELDS) };
  }
}

export const geminiCliAdapter: HarnessAdapter = (payload): AdaptedEvent => {
  const base: EventBase = {
    nativeSessionId: requireSessionId(payload.session_id, 'session_id'),
    eventName: requireEventName(payload.hook_event_name, 'hook_event_name'),
    occurredAt: parseTimestamp(payload.timestamp),
    session: sessionFacts({ cwd: payload.cwd, transcriptPath: payload.transcript_path }),
  };
  return buildEvent(base, parts(payload, base.eventName));
};
