/**
 * Cursor (cursor.com/docs/agent/hooks). `~/.cursor/hooks.json` or a project's
 * `.cursor/hooks.json`: `{ "version": 1, "hooks": { "<event>": [{ "command": "…" }] } }`.
 * Each command gets one JSON object on stdin with `conversation_id`, `generation_id` (one
 * per turn), `hook_event_name`, `workspace_roots`, and optionally `model`,
 * `cursor_version`, `user_email`, `transcript_path` — no timestamp. Per event:
 *
 *   sessionStart          session_id, is_background_agent, composer_mode
 *   sessionEnd            session_id, reason, duration_ms, final_status?, error_message?
 *   beforeSubmitPrompt    prompt, attachments               → the user's prompt
 *   afterAgentResponse    text                              → the reply
 *   afterAgentThought     text, duration_ms                 → kept, off the timeline
 *   beforeShellExecution  command, cwd                      → a Shell call
 *   afterShellExecution   command, output, duration         → its result
 *   beforeMCPExecution    tool_name, tool_input (JSON text), url | command
 *   afterMCPExecution     tool_name, tool_input, result_json, duration
 *   beforeReadFile        file_path, content, attachments   → a Read call (not its content)
 *   afterFileEdit         file_path, edits [{ old_string, new_string }] → an Edit result
 *   preToolUse            tool_name, tool_input, tool_use_id, cwd
 *   postToolUse           tool_name, tool_input, tool_output (JSON text), tool_use_id, duration
 *   postToolUseFailure    tool_name, tool_input, tool_use_id, error_message, failure_type
 *   subagentStart / subagentStop, preCompact, stop (status, loop_count), and newer ones.
 *
 * The session is `conversation_id` (`session_id` where it is the only id); the directory is
 * the first workspace root. Shell and MCP hooks carry no call id: a call and its result are
 * paired by a derived id (the turn, the tool and its input).
 */
import type { AdaptedEvent, HarnessAdapter, HookPayload } from '../types';
import { buildEvent, derivedToolId, firstPath, requireEventName, requireSessionId, sessionFacts, type EventBase, type EventParts } from './shared';
import { parseJsonText, renderFields, str, toolCallContent, toolResultContent } from './text';

const CURSOR_COMMON_FIELDS: ReadonlySet<string> = new Set([
  'conversation_id',
  'generation_id',
  'session_id',
  'hook_event_name',
  'workspace_roots',
  'model',
  'cursor_version',
  'user_email',
  'transcript_path',
]);

function parts(payload: HookPayload, eventName: string): EventParts {
  const turn = str(payload.generation_id) ?? null;
  const shell = { toolName: 'Shell', toolUseId: derivedToolId(turn, 'Shell', str(payload.command) ?? null), derivedToolId: true };
  const toolName = str(payload.tool_name) ?? null;
  const mcpInput = parseJsonText(payload.tool_input);
  const mcp = { toolName, toolUseId: derivedToolId(turn, toolName, mcpInput ?? null), derivedToolId: true };
  const tool = { toolName, toolUseId: payload.tool_use_id };
  switch (eventName) {
    case 'beforeSubmitPrompt':
      return { kind: 'message', role: 'user', content: str(payload.prompt) ?? '' };

    case 'afterAgentResponse':
      return { kind: 'message', role: 'assistant', content: str(payload.text) ?? '' };

    case 'afterAgentThought':
      return { kind: 'annotation', role: 'assistant', content: str(payload.text) ?? '', lifecycleOnly: true };

    case 'beforeShellExecution':
      return { kind: 'tool_call', role: 'assistant', content: toolCallContent('Shell', { command: payload.command, cwd: payload.cwd }), lifecycleOnly: true, ...shell };

    case 'afterShellExecution': {
      const exit = typeof payload.exit_code === 'number' ? payload.exit_code : undefined;
      const output = str(payload.output) ?? '';
      if (exit !== undefined && exit !== 0) {
        return { kind: 'tool_result', role: 'tool', outcome: 'error', content: toolResultContent('Shell', { command: payload.command }, { error: `exit ${exit}${output === '' ? '' : `\n${output}`}` }), ...shell };
      }
      return { kind: 'tool_result', role: 'tool', outcome: 'success', content: toolResultContent('Shell', { command: payload.command }, { output }), ...shell };
    }

    case 'beforeMCPExecution':
      return { kind: 'tool_call', role: 'assistant', content: toolCallContent(toolName, mcpInput), lifecycleOnly: true, ...mcp };

    case 'afterMCPExecution':
      return { kind: 'tool_result', role: 'tool', outcome: 'success', content: toolResultContent(toolName, mcpInput, { output: parseJsonText(payload.result_json ?? payload.tool_result) }), ...mcp };

    case 'beforeReadFile':
      // The file's content is in the payload; the ledger keeps only which file was read.
      return { kind: 'tool_call', role: 'assistant', content: toolCallContent('Read', { file_path: payload.file_path }), lifecycleOnly: true, toolName: 'Read' };

    case 'afterFileEdit':
      return { kind: 'tool_result', role: 'tool', outcome: 'success', content: toolResultContent('Edit', { file_path: payload.file_path, edits: payload.edits }, { output: 'edited' }), toolName: 'Edit' };

    case 'preToolUse':
      return { kind: 'tool_call', role: 'assistant', content: toolCallContent(toolName, parseJsonText(payload.tool_input)), lifecycleOnly: true, ...tool };

    case 'postToolUse':
      return { kind: 'tool_result', role: 'tool', outcome: 'success', content: toolResultContent(toolName, parseJsonText(payload.tool_input), { output: parseJsonText(payload.tool_output) }), ...tool };

    case 'postToolUseFailure': {
      const error = str(payload.error_message) ?? str(payload.failure_type) ?? 'failed';
      return { kind: 'tool_result', role: 'tool', outcome: 'error', content: toolResultContent(toolName, parseJsonText(payload.tool_input), { error }), ...tool };
    }

    case 'preCompact':
      return { kind: 'compaction', role: 'system', content: `Compacting context (${str(payload.trigger) ?? 'unknown'})`, lifecycleOnly: true };

    case 'stop':
      // The end of the agent's loop for one prompt (the reply came with afterAgentResponse).
      return { kind: 'checkpoint', role: 'system', content: `Turn ended (${str(payload.status) ?? 'unknown'})`, lifecycleOnly: true };

    case 'sessionStart': {
      const mode = str(payload.composer_mode);
      const background = payload.is_background_agent === true ? 'background agent' : undefined;
      const facts = [mode, background].filter((part) => part !== undefined).join(', ');
      return { kind: 'lifecycle', role: 'system', content: facts === '' ? 'Session started' : `Session started (${facts})` };
    }

    case 'sessionEnd':
      return { kind: 'lifecycle', role: 'system', content: `Session ended (${str(payload.reason) ?? str(payload.final_status) ?? 'unknown'})`, endsSession: true };

    default:
      return { kind: 'lifecycle', role: 'system', content: renderFields(payload, CURSOR_COMMON_FIELDS), ...tool };
  }
}

export const cursorAdapter: HarnessAdapter = (payload): AdaptedEvent => {
  const base: EventBase = {
    nativeSessionId: requireSessionId(payload.conversation_id ?? payload.session_id, 'conversation_id'),
    eventName: requireEventName(payload.hook_event_name, 'hook_event_name'),
    occurredAt: null, // Cursor's payloads carry no timestamp.
    session: sessionFacts({ cwd: firstPath(payload.workspace_roots) ?? payload.cwd, transcriptPath: payload.transcript_path, model: payload.model }),
  };
  return buildEvent(base, parts(payload, base.eventName));
};
