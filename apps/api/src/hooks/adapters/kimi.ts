/**
 * Kimi Code CLI (MoonshotAI/kimi-cli, docs/en/customization/hooks.md; `[[hooks]]` in
 * `~/.kimi/config.toml`). Every payload has `session_id`, `cwd`, `hook_event_name`, and no
 * timestamp; the 13 events are Claude Code's names with some fields of their own:
 *
 *   PreToolUse          tool_name, tool_input, tool_call_id
 *   PostToolUse         tool_name, tool_input, tool_output (text), tool_call_id
 *   PostToolUseFailure  tool_name, tool_input, error, tool_call_id
 *   UserPromptSubmit    prompt
 *   Stop                stop_hook_active (no reply text)
 *   StopFailure         error_type, error_message
 *   SessionStart        source (startup | resume)
 *   SessionEnd          reason
 *   SubagentStart       agent_name, prompt
 *   SubagentStop        agent_name, response
 *   PreCompact          trigger, token_count
 *   PostCompact         trigger, estimated_token_count
 *   Notification        sink, notification_type, title, body, severity
 *
 * Renamed to Claude Code's fields, then mapped like Claude Code's events.
 */
import type { HarnessAdapter, HookPayload } from '../types';
import { adaptHookEvent } from './claude-code';
import { requireEventName, requireSessionId, sessionFacts } from './shared';
import { str } from './text';

/** The payload with Kimi's own field names replaced by Claude Code's, where they differ. */
function asClaudeShaped(payload: HookPayload, eventName: string): HookPayload {
  const { tool_call_id: toolCallId, ...rest } = payload;
  const shaped: HookPayload = { ...rest, ...(str(toolCallId) === undefined ? {} : { tool_use_id: toolCallId }) };
  switch (eventName) {
    case 'PostToolUse': {
      const { tool_output: output, ...others } = shaped;
      return { ...others, tool_response: output };
    }
    case 'StopFailure': {
      const { error_type: type, error_message: message, ...others } = shaped;
      return { ...others, error: type, error_details: message };
    }
    case 'SubagentStart': {
      const { agent_name: name, ...others } = shaped;
      return { ...others, agent_type: name };
    }
    case 'SubagentStop': {
      const { agent_name: name, response, ...others } = shaped;
      return { ...others, agent_type: name, last_assistant_message: response };
    }
    case 'Notification': {
      const { body, ...others } = shaped;
      return { ...others, message: body };
    }
    default:
      return shaped;
  }
}

export const kimiAdapter: HarnessAdapter = (payload) => {
  const nativeSessionId = requireSessionId(payload.session_id, 'session_id');
  const eventName = requireEventName(payload.hook_event_name, 'hook_event_name');
  return adaptHookEvent(
    asClaudeShaped(payload, eventName),
    { nativeSessionId, eventName, occurredAt: null, session: sessionFacts({ cwd: payload.cwd }) },
    { deriveToolIds: true },
  );
};
