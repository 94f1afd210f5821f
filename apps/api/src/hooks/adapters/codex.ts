/**
 * OpenAI Codex CLI (openai/codex). Two sources, told apart by their fields:
 *
 * 1. The `notify` program (config.toml `notify = ["prog", "arg"…]`, every version): Codex
 *    runs it after each turn with one JSON argument appended to argv:
 *
 *      { "type": "agent-turn-complete", "thread-id": "…", "turn-id": "…", "cwd": "…",
 *        "client": "codex-tui"?, "input-messages": ["…"], "last-assistant-message": "…"|null }
 *
 *    → a `message` from the assistant: the last assistant message, followed by the user
 *    input messages it answered (so the prompt is searchable too). Session = `thread-id`.
 *
 * 2. The hooks engine (hooks.json / config.toml `[hooks]`; experimental from 0.114.0 with
 *    SessionStart and Stop, later UserPromptSubmit, PreToolUse, PermissionRequest,
 *    PostToolUse, PreCompact, PostCompact, SubagentStart, SubagentStop, StopFailure,
 *    SessionEnd, Interrupt): Claude-Code-shaped JSON on stdin with `session_id`,
 *    `turn_id`, `transcript_path` (nullable), `cwd`, `hook_event_name`, `model`,
 *    `permission_mode`, and per event `source`, `prompt`, `tool_name` (`Bash`,
 *    `apply_patch`, `mcp__server__tool`), `tool_input` (`{ command }`), `tool_response`,
 *    `tool_use_id`, `stop_hook_active`, `last_assistant_message`, `trigger`… Mapped exactly
 *    like Claude Code's events of the same name.
 */
import type { HarnessAdapter, HookPayload } from '../types';
import { adaptHookEvent } from './claude-code';
import { buildEvent, requireEventName, requireSessionId, sessionFacts } from './shared';
import { capText, str } from './text';

function isNotifyPayload(payload: HookPayload): boolean {
  if ('hook_event_name' in payload || 'session_id' in payload) return false;
  return 'thread-id' in payload || 'type' in payload;
}

export const codexAdapter: HarnessAdapter = (payload) => {
  if (!isNotifyPayload(payload)) {
    const nativeSessionId = requireSessionId(payload.session_id, 'session_id');
    const eventName = requireEventName(payload.hook_event_name, 'hook_event_name');
    return adaptHookEvent(payload, {
      nativeSessionId,
      eventName,
      occurredAt: null, // Codex hook payloads carry no timestamp.
      session: sessionFacts({ cwd: payload.cwd, transcriptPath: payload.transcript_path, model: payload.model }),
    });
  }

  const nativeSessionId = requireSessionId(payload['thread-id'], 'thread-id');
  const eventName = requireEventName(payload.type, 'type');
  const base = { nativeSessionId, eventName, occurredAt: null, session: sessionFacts({ cwd: payload.cwd }) };
  if (eventName !== 'agent-turn-complete') {
    return buildEvent(base, { kind: 'lifecycle', role: 'system', content: '' });
  }
  const last = str(payload['last-assistant-message']);
  const inputs = Array.isArray(payload['input-messages'])
    ? payload['input-messages'].filter((message): message is string => typeof message === 'string' && message.length > 0)
    : [];
  const inReplyTo = inputs.length === 0 ? '' : `\n\n[in reply to]\n${capText(inputs.join('\n\n'), 16 * 1024)}`;
  return buildEvent(base, {
    kind: 'message',
    role: 'assistant',
    content: (last ?? '') + (last === undefined ? inReplyTo.trimStart() : inReplyTo),
    lifecycleOnly: last === undefined && inputs.length === 0,
  });
};
