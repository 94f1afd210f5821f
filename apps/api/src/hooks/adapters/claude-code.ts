/**
 * Claude Code hooks (https://code.claude.com/docs/en/hooks).
 *
 * A command hook gets one JSON object on stdin. Every event carries `session_id`,
 * `transcript_path`, `cwd`, `hook_event_name` (most also `permission_mode`), and no
 * timestamp. Per event:
 *
 *   SessionStart        source (startup|resume|clear|compact), model?
 *   UserPromptSubmit    prompt
 *   PreToolUse          tool_name, tool_input, tool_use_id
 *   PermissionRequest   tool_name, tool_input, permission_suggestions? (no tool_use_id)
 *   PermissionDenied    tool_name, tool_input, tool_use_id, reason (auto mode)
 *   PostToolUse         tool_name, tool_input, tool_response, tool_use_id, duration_ms?
 *   PostToolUseFailure  tool_name, tool_input, tool_use_id, error, is_interrupt?
 *   Notification        message, title?, notification_type?
 *   SubagentStart       agent_id, agent_type
 *   SubagentStop        stop_hook_active, agent_id, agent_type, agent_transcript_path,
 *                       last_assistant_message?
 *   Stop                stop_hook_active, last_assistant_message?
 *   StopFailure         error, error_details?, last_assistant_message? (the API error text)
 *   PreCompact          trigger (manual|auto), custom_instructions
 *   PostCompact         trigger, compact_summary
 *   SessionEnd          reason (clear|resume|logout|prompt_input_exit|other)
 *   …and more (TaskCreated, CwdChanged, FileChanged, Elicitation…), kept as lifecycle.
 *
 * Codex's hooks engine (openai/codex ≥ 0.114) sends the same shapes (plus `turn_id` and
 * `model`), so the Codex adapter reuses `adaptHookEvent`.
 */
import type { AdaptedEvent, HarnessAdapter, HookPayload } from '../types';
import { COMMON_HOOK_FIELDS, buildEvent, derivedToolId, requireEventName, requireSessionId, sessionFacts, type EventBase } from './shared';
import { renderFields, str, toolCallContent, toolResultContent } from './text';

/**
 * Maps one Claude-Code-style hook payload (Claude Code, Codex hooks, Factory Droid, Kimi
 * once renamed) to an event. `deriveToolIds`: a tool event without `tool_use_id` is paired
 * by a derived id (derivedToolId of its name and input).
 */
export function adaptHookEvent(payload: HookPayload, base: EventBase, options: { deriveToolIds?: boolean } = {}): AdaptedEvent {
  const toolName = str(payload.tool_name) ?? null;
  const derive = options.deriveToolIds === true && str(payload.tool_use_id) === undefined && toolName !== null;
  const tool = derive
    ? { toolName, toolUseId: derivedToolId(toolName, payload.tool_input ?? null), derivedToolId: true }
    : { toolName, toolUseId: payload.tool_use_id };
  const build = (parts: Parameters<typeof buildEvent>[1]) => buildEvent(base, parts);

  switch (base.eventName) {
    case 'UserPromptSubmit':
      return build({ kind: 'message', role: 'user', content: str(payload.prompt) ?? '' });

    case 'PreToolUse':
      // The PostToolUse result repeats the input, so the call itself stays off the timeline.
      return build({ kind: 'tool_call', role: 'assistant', content: toolCallContent(toolName, payload.tool_input), lifecycleOnly: true, ...tool });

    case 'PostToolUse':
      return build({
        kind: 'tool_result',
        role: 'tool',
        outcome: 'success',
        content: toolResultContent(toolName, payload.tool_input, { output: payload.tool_response }),
        ...tool,
      });

    case 'PostToolUseFailure':
      return build({
        kind: 'tool_result',
        role: 'tool',
        outcome: 'error',
        content: toolResultContent(toolName, payload.tool_input, {
          error: str(payload.error) ?? str(payload.error_message) ?? 'failed',
          interrupted: payload.is_interrupt === true,
        }),
        ...tool,
      });

    case 'PermissionDenied':
      // Auto mode refused the call: it never runs, so this is its (failed) result.
      return build({
        kind: 'tool_result',
        role: 'tool',
        outcome: 'error',
        content: toolResultContent(toolName, payload.tool_input, { error: `permission denied${reasonSuffix(payload.reason)}` }),
        ...tool,
      });

    case 'PermissionRequest':
      return build({ kind: 'lifecycle', role: 'system', content: `Permission requested: ${toolCallContent(toolName, payload.tool_input)}`, ...tool });

    case 'Notification': {
      const title = str(payload.title);
      const type = str(payload.notification_type);
      const text = [title, str(payload.message)].filter((part) => part !== undefined).join(': ');
      return build({ kind: 'annotation', role: 'system', content: type === undefined ? text : `${text} (${type})` });
    }

    case 'PreCompact': {
      const instructions = str(payload.custom_instructions);
      const content = `Compacting context (${str(payload.trigger) ?? 'unknown'})${instructions === undefined ? '' : `: ${instructions}`}`;
      return build({ kind: 'compaction', role: 'system', content, lifecycleOnly: true });
    }

    case 'PostCompact':
      return build({
        kind: 'compaction',
        role: 'system',
        content: str(payload.compact_summary) ?? `Context compacted (${str(payload.trigger) ?? 'unknown'})`,
        lifecycleOnly: false,
      });

    case 'Stop':
    case 'SubagentStop': {
      // With the assistant's final text this is the turn's answer: a message. Without it,
      // only a checkpoint marking the end of the turn.
      const subagent = base.eventName === 'SubagentStop' ? (str(payload.agent_type) ?? 'subagent') : undefined;
      const last = str(payload.last_assistant_message);
      if (last !== undefined) {
        return build({ kind: 'message', role: 'assistant', content: subagent === undefined ? last : `[${subagent}] ${last}`, lifecycleOnly: false });
      }
      return build({ kind: 'checkpoint', role: 'system', content: subagent === undefined ? '' : `Subagent ${subagent} finished`, lifecycleOnly: true });
    }

    case 'StopFailure': {
      const details = str(payload.error_details) ?? str(payload.last_assistant_message);
      return build({ kind: 'annotation', role: 'system', content: `Turn failed: ${str(payload.error) ?? 'unknown'}${details === undefined ? '' : ` — ${details}`}` });
    }

    case 'SessionStart': {
      const facts = [str(payload.source), str(payload.model)].filter((part) => part !== undefined).join(', ');
      return build({ kind: 'lifecycle', role: 'system', content: facts === '' ? 'Session started' : `Session started (${facts})` });
    }

    case 'SessionEnd':
      return build({ kind: 'lifecycle', role: 'system', content: `Session ended (${str(payload.reason) ?? 'unknown'})`, endsSession: true });

    case 'SubagentStart':
      return build({ kind: 'lifecycle', role: 'system', content: `Subagent ${str(payload.agent_type) ?? 'unknown'} started` });

    default:
      // Unknown and newer events are kept, never refused: their own fields as text.
      return build({ kind: 'lifecycle', role: 'system', content: renderFields(payload, COMMON_HOOK_FIELDS), ...tool });
  }
}

function reasonSuffix(reason: unknown): string {
  const text = str(reason);
  return text === undefined ? '' : `: ${text}`;
}

export const claudeCodeAdapter: HarnessAdapter = (payload) => {
  const nativeSessionId = requireSessionId(payload.session_id, 'session_id');
  const eventName = requireEventName(payload.hook_event_name, 'hook_event_name');
  return adaptHookEvent(payload, {
    nativeSessionId,
    eventName,
    occurredAt: null, // Claude Code payloads carry no timestamp.
    session: sessionFacts({ cwd: payload.cwd, transcriptPath: payload.transcript_path, model: payload.model }),
  });
};
