/**
 * Cline (docs.cline.bot, features/hooks/hook-reference; cline/cline `hooks.proto`). A hook
 * is an executable named after its event in `~/Documents/Cline/Hooks/` or a project's
 * `.clinerules/hooks/`; it gets one JSON object on stdin — camelCase:
 *
 *   { "clineVersion", "hookName", "timestamp" (epoch ms, as text), "taskId",
 *     "workspaceRoots": ["…"], "userId", "model"?: { "provider", "slug" },
 *     "<hook's own object>": … }
 *
 *   TaskStart         taskStart.taskMetadata { taskId, ulid, initialTask }
 *   TaskResume        taskResume.taskMetadata, previousState { messageCount, … }
 *   TaskCancel        taskCancel.taskMetadata { completionStatus }
 *   TaskComplete      taskComplete.taskMetadata { result }        → the reply, when given
 *   UserPromptSubmit  userPromptSubmit { prompt, attachments }    → the user's prompt
 *   PreToolUse        preToolUse { toolName, parameters }
 *   PostToolUse       postToolUse { toolName, parameters, result, success, executionTimeMs }
 *   PreCompact        preCompact { compactionStrategy, contextSize, … }
 *   Notification      notification { event, message, severity, … }
 *
 * The session is the task (`taskId`); the directory is the first workspace root. Tool
 * hooks carry no call id: a call and its result are paired by a derived id (the tool's name
 * and parameters). TaskStart's `initialTask` is the first prompt, which UserPromptSubmit
 * also reports: it stays off the timeline there, so the prompt is not shown twice.
 */
import type { AdaptedEvent, HarnessAdapter, HookPayload } from '../types';
import { buildEvent, derivedToolId, firstPath, requireEventName, requireSessionId, sessionFacts, type EventBase, type EventParts } from './shared';
import { isRecord, parseTimestamp, renderFields, str, toolCallContent, toolResultContent } from './text';

const CLINE_COMMON_FIELDS: ReadonlySet<string> = new Set(['clineVersion', 'hookName', 'timestamp', 'taskId', 'workspaceRoots', 'userId', 'model']);

type Data = Record<string, unknown>;

/** The hook's own object: `preToolUse` for PreToolUse, `taskStart` for TaskStart… */
function dataOf(payload: HookPayload, eventName: string): Data {
  const key = eventName.charAt(0).toLowerCase() + eventName.slice(1);
  const data = payload[key];
  return isRecord(data) ? data : {};
}

function metadataOf(data: Data): Data {
  return isRecord(data.taskMetadata) ? data.taskMetadata : {};
}

function modelOf(payload: HookPayload): string | undefined {
  const model = payload.model;
  if (!isRecord(model)) return str(model);
  const slug = str(model.slug);
  const provider = str(model.provider);
  return slug === undefined ? undefined : provider === undefined ? slug : `${provider}/${slug}`;
}

function parts(payload: HookPayload, eventName: string): EventParts {
  const data = dataOf(payload, eventName);
  const toolName = str(data.toolName) ?? null;
  const tool = { toolName, toolUseId: toolName === null ? undefined : derivedToolId(toolName, data.parameters ?? null), derivedToolId: true };
  switch (eventName) {
    case 'UserPromptSubmit':
      return { kind: 'message', role: 'user', content: str(data.prompt) ?? '' };

    case 'PreToolUse':
      return { kind: 'tool_call', role: 'assistant', content: toolCallContent(toolName, data.parameters), lifecycleOnly: true, ...tool };

    case 'PostToolUse': {
      const result = str(data.result) ?? '';
      if (data.success === false) {
        return { kind: 'tool_result', role: 'tool', outcome: 'error', content: toolResultContent(toolName, data.parameters, { error: result === '' ? 'failed' : result }), ...tool };
      }
      return { kind: 'tool_result', role: 'tool', outcome: 'success', content: toolResultContent(toolName, data.parameters, { output: result }), ...tool };
    }

    case 'TaskStart': {
      const task = str(metadataOf(data).initialTask);
      return { kind: 'lifecycle', role: 'system', content: task === undefined ? 'Task started' : `Task started: ${task}` };
    }

    case 'TaskResume':
      return { kind: 'lifecycle', role: 'system', content: 'Task resumed' };

    case 'TaskComplete': {
      const result = str(metadataOf(data).result);
      if (result !== undefined) return { kind: 'message', role: 'assistant', content: result };
      return { kind: 'checkpoint', role: 'system', content: 'Task completed', lifecycleOnly: true };
    }

    case 'TaskCancel':
      return { kind: 'checkpoint', role: 'system', content: 'Task cancelled', lifecycleOnly: true };

    case 'PreCompact':
      return { kind: 'compaction', role: 'system', content: `Compacting context (${str(data.compactionStrategy) ?? 'unknown'})`, lifecycleOnly: true };

    case 'Notification': {
      const message = str(data.message) ?? str(data.event) ?? '';
      const severity = str(data.severity);
      return { kind: 'annotation', role: 'system', content: severity === undefined ? message : `${message} (${severity})` };
    }

    default:
      return { kind: 'lifecycle', role: 'system', content: Object.keys(data).length > 0 ? renderFields(data) : renderFields(payload, CLINE_COMMON_FIELDS) };
  }
}

export const clineAdapter: HarnessAdapter = (payload): AdaptedEvent => {
  const base: EventBase = {
    nativeSessionId: requireSessionId(payload.taskId, 'taskId'),
    eventName: requireEventName(payload.hookName, 'hookName'),
    occurredAt: parseTimestamp(payload.timestamp),
    session: sessionFacts({ cwd: firstPath(payload.workspaceRoots), model: modelOf(payload) }),
  };
  return buildEvent(base, parts(payload, base.eventName));
};
