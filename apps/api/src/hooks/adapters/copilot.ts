/**
 * GitHub Copilot CLI (docs.github.com, copilot-cli-reference/cli-hooks-reference).
 * `.github/hooks/*.json`: `{ "version": 1, "hooks": { "<event>": [{ "type": "command",
 * "bash": "…" }] } }`. Two payload formats, chosen by how the event is named in that file:
 *
 * 1. camelCase events (`sessionStart`…): camelCase fields, and no event name — each event
 *    is told by its own fields:
 *
 *      sessionStart         sessionId, timestamp (epoch ms), cwd, source, initialPrompt?
 *      sessionEnd           sessionId, timestamp, cwd, reason
 *      userPromptSubmitted  sessionId, timestamp, cwd, prompt          → the user's prompt
 *      preToolUse           …, toolName, toolArgs (JSON text)
 *      postToolUse          …, toolName, toolArgs, toolResult { resultType, textResultForLlm }
 *      postToolUseFailure   …, toolName, toolArgs, error (text)           → the failed result
 *      preCompact           …, transcriptPath, trigger, customInstructions → compaction
 *      errorOccurred        …, error { message, name, stack }
 *      agentStop, subagentStop, subagentStart, permissionRequest, notification, newer ones:
 *      kept as lifecycle
 *
 *    A `hookEventName` (or `hook_event_name`) is used when present.
 * 2. PascalCase events (`SessionStart`…, VS Code's format): snake_case, Claude-Code-shaped
 *    (`session_id`, `hook_event_name`, `tool_name`…), mapped like Claude Code's events.
 *
 * Tool hooks carry no call id: a call and its result are paired by a derived id (the tool's
 * name and arguments). Copilot reads no context from sessionStart or userPromptSubmitted
 * output, so this harness is capture only.
 */
import type { AdaptedEvent, HarnessAdapter, HookPayload } from '../types';
import { adaptHookEvent } from './claude-code';
import { buildEvent, derivedToolId, requireEventName, requireSessionId, sessionFacts, type EventBase, type EventParts } from './shared';
import { isRecord, parseJsonText, parseTimestamp, renderFields, str, toolCallContent, toolResultContent } from './text';

const COPILOT_COMMON_FIELDS: ReadonlySet<string> = new Set(['sessionId', 'timestamp', 'cwd', 'hookEventName', 'transcriptPath']);

/** The event a camelCase payload is: its name when it carries one, else told by its fields. */
function eventNameOf(payload: HookPayload): string {
  const named = str(payload.hookEventName) ?? str(payload.hook_event_name) ?? str(payload.event);
  if (named !== undefined) return named;
  if (payload.toolResult !== undefined) return 'postToolUse';
  if (payload.toolName !== undefined) return typeof payload.error === 'string' ? 'postToolUseFailure' : 'preToolUse';
  if (typeof payload.prompt === 'string') return 'userPromptSubmitted';
  if (payload.error !== undefined) return 'errorOccurred';
  if (payload.source !== undefined || payload.initialPrompt !== undefined) return 'sessionStart';
  if (payload.trigger !== undefined) return 'preCompact';
  if (payload.reason !== undefined) return 'sessionEnd';
  return 'unknown';
}

function parts(payload: HookPayload, eventName: string): EventParts {
  const toolName = str(payload.toolName) ?? null;
  const args = parseJsonText(payload.toolArgs);
  const tool = { toolName, toolUseId: toolName === null ? undefined : derivedToolId(toolName, args ?? null), derivedToolId: true };
  switch (eventName) {
    case 'userPromptSubmitted':
      return { kind: 'message', role: 'user', content: str(payload.prompt) ?? '' };

    case 'preToolUse':
      return { kind: 'tool_call', role: 'assistant', content: toolCallContent(toolName, args), lifecycleOnly: true, ...tool };

    case 'postToolUse': {
      const result: Record<string, unknown> = isRecord(payload.toolResult) ? payload.toolResult : { textResultForLlm: payload.toolResult };
      const text = str(result.textResultForLlm) ?? '';
      const type = str(result.resultType) ?? 'success';
      if (type !== 'success') {
        return { kind: 'tool_result', role: 'tool', outcome: 'error', content: toolResultContent(toolName, args, { error: text === '' ? type : `${type}: ${text}` }), ...tool };
      }
      return { kind: 'tool_result', role: 'tool', outcome: 'success', content: toolResultContent(toolName, args, { output: text }), ...tool };
    }

    case 'postToolUseFailure':
      return { kind: 'tool_result', role: 'tool', outcome: 'error', content: toolResultContent(toolName, args, { error: str(payload.error) ?? 'failed' }), ...tool };

    case 'preCompact': {
      const instructions = str(payload.customInstructions);
      return { kind: 'compaction', role: 'system', content: `Compacting context (${str(payload.trigger) ?? 'unknown'})${instructions === undefined ? '' : `: ${instructions}`}`, lifecycleOnly: true };
    }

    case 'errorOccurred': {
      const error: Record<string, unknown> = isRecord(payload.error) ? payload.error : { message: payload.error };
      const name = str(error.name);
      const message = str(error.message) ?? 'unknown';
      return { kind: 'annotation', role: 'system', content: `Error: ${name === undefined ? message : `${name}: ${message}`}` };
    }

    case 'sessionStart': {
      const prompt = str(payload.initialPrompt);
      const started = `Session started (${str(payload.source) ?? 'unknown'})`;
      return { kind: 'lifecycle', role: 'system', content: prompt === undefined ? started : `${started}: ${prompt}` };
    }

    case 'sessionEnd':
      return { kind: 'lifecycle', role: 'system', content: `Session ended (${str(payload.reason) ?? 'unknown'})`, endsSession: true };

    default:
      return { kind: 'lifecycle', role: 'system', content: renderFields(payload, COPILOT_COMMON_FIELDS) };
  }
}

export const copilotAdapter: HarnessAdapter = (payload): AdaptedEvent => {
  if (payload.hook_event_name !== undefined && payload.sessionId === undefined) {
    // VS Code's format: Claude-Code-shaped.
    return adaptHookEvent(
      payload,
      {
        nativeSessionId: requireSessionId(payload.session_id, 'session_id'),
        eventName: requireEventName(payload.hook_event_name, 'hook_event_name'),
        occurredAt: parseTimestamp(payload.timestamp),
        session: sessionFacts({ cwd: payload.cwd, transcriptPath: payload.transcript_path, model: payload.model }),
      },
      { deriveToolIds: true },
    );
  }
  const base: EventBase = {
    nativeSessionId: requireSessionId(payload.sessionId, 'sessionId'),
    eventName: requireEventName(eventNameOf(payload), 'hookEventName'),
    occurredAt: parseTimestamp(payload.timestamp),
    session: sessionFacts({ cwd: payload.cwd, transcriptPath: payload.transcriptPath }),
  };
  return buildEvent(base, parts(payload, base.eventName));
};
