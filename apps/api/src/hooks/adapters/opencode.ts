/**
 * OpenCode (opencode.ai). OpenCode has no hook commands: plugins are JS/TS modules whose
 * hooks OpenCode calls in-process. Our plugin (integrations/opencode/memory-bank.js) turns
 * each hook call into one JSON payload that keeps OpenCode's own names:
 *
 *   {
 *     "event": "tool.execute.after",  // required: the plugin hook name, or the bus event type
 *                                     //   (chat.message | tool.execute.before | tool.execute.after |
 *                                     //    experimental.session.compacting | session.created | session.idle |
 *                                     //    session.compacted | session.deleted | session.error |
 *                                     //    message.updated | message.part.updated | …)
 *     "sessionID": "ses_…",          // required
 *     "time": 1737000000000,         // optional, epoch ms (or ISO) when the plugin saw it
 *     "directory": "/home/me/app",   // optional, PluginInput.directory
 *     "model": "anthropic/claude-…", // optional, "providerID/modelID"
 *
 *     "tool": "bash", "callID": "toolu_…", "args": { … },  // tool.execute.before / .after
 *     "title": "…", "output": "…", "metadata": { … },     // tool.execute.after (its output)
 *     "messageID": "msg_…", "agent": "build",             // chat.message
 *     "role": "user" | "assistant", "text": "…",          // chat.message, message.updated
 *     "properties": { … }                                 // bus events: OpenCode's own properties
 *   }
 *
 * Also accepted: the Claude-shaped events some other plugins emit — the name in
 * `hook_event_name` (or `hook_event`) when `event` is absent, the session in `session_id`,
 * the directory in `cwd`, the other fields rendered as the event's content; a raw bus
 * event `{ "type": "session.idle", "properties": { "sessionID": … } }` or the event hook's argument `{ "event": { "type", "properties" } }`; the session id is then
 * read from `properties.sessionID`, `properties.info.sessionID` (messages),
 * `properties.part.sessionID` (parts) or `properties.info.id` (session.* events).
 */
import type { AdaptedEvent, HarnessAdapter, HookPayload } from '../types';
import { buildEvent, requireEventName, requireSessionId, sessionFacts, type EventBase, type EventParts } from './shared';
import { isRecord, parseTimestamp, renderFields, str, toolCallContent, toolResultContent } from './text';

type Properties = Record<string, unknown>;

/** The keys that name and place a Claude-shaped event, left out of its rendered fields. */
const CLAUDE_SHAPE_KEYS = new Set(['hook_event_name', 'hook_event', 'session_id', 'sessionID', 'cwd', 'transcript_path', 'time']);

function eventOf(payload: HookPayload): { name: unknown; properties: Properties } {
  const event = payload.event;
  if (isRecord(event)) {
    return { name: event.type, properties: isRecord(event.properties) ? event.properties : {} };
  }
  if (event === undefined && (payload.hook_event_name !== undefined || payload.hook_event !== undefined)) {
    // Other OpenCode plugins emit Claude-shaped events: their own fields are the event's.
    const properties = isRecord(payload.properties) ? payload.properties : Object.fromEntries(Object.entries(payload).filter(([key]) => !CLAUDE_SHAPE_KEYS.has(key)));
    return { name: payload.hook_event_name ?? payload.hook_event, properties };
  }
  return { name: event ?? payload.type, properties: isRecord(payload.properties) ? payload.properties : {} };
}

function sessionIdOf(payload: HookPayload, name: unknown, properties: Properties): unknown {
  if (payload.sessionID !== undefined) return payload.sessionID;
  if (payload.session_id !== undefined) return payload.session_id; // Claude-shaped events from other plugins
  const info = isRecord(properties.info) ? properties.info : undefined;
  const part = isRecord(properties.part) ? properties.part : undefined;
  return (
    properties.sessionID ??
    info?.sessionID ??
    part?.sessionID ??
    (typeof name === 'string' && name.startsWith('session.') ? info?.id : undefined)
  );
}

function modelOf(payload: HookPayload): string | undefined {
  const model = payload.model;
  if (typeof model === 'string') return model;
  if (isRecord(model) && typeof model.providerID === 'string' && typeof model.modelID === 'string') {
    return `${model.providerID}/${model.modelID}`;
  }
  return undefined;
}

/** Text of `[{ type: 'text', text }]` parts (synthetic and ignored parts left out). */
function textOfParts(parts: unknown): string {
  if (!Array.isArray(parts)) return '';
  return parts
    .filter((part) => isRecord(part) && part.type === 'text' && typeof part.text === 'string' && part.synthetic !== true && part.ignored !== true)
    .map((part) => (part as { text: string }).text)
    .join('\n');
}

/** OpenCode's error objects: `{ name, data: { message } }`, or plain strings. */
function errorText(error: unknown): string | undefined {
  if (typeof error === 'string') return str(error);
  if (!isRecord(error)) return undefined;
  const data = isRecord(error.data) ? error.data : {};
  const message = str(data.message) ?? str(error.message);
  const name = str(error.name);
  if (name !== undefined && message !== undefined) return `${name}: ${message}`;
  return name ?? message;
}

/** A tool part (`message.part.updated` with `part.type === 'tool'`): its result once settled. */
function toolPart(part: Properties): EventParts {
  const state = isRecord(part.state) ? part.state : {};
  const tool = { toolName: part.tool, toolUseId: part.callID };
  const name = str(part.tool) ?? null;
  if (state.status === 'completed') {
    return { kind: 'tool_result', role: 'tool', outcome: 'success', content: toolResultContent(name, state.input, { output: state.output }), ...tool };
  }
  if (state.status === 'error') {
    return { kind: 'tool_result', role: 'tool', outcome: 'error', content: toolResultContent(name, state.input, { error: str(state.error) ?? 'failed' }), ...tool };
  }
  return { kind: 'lifecycle', role: 'system', content: toolCallContent(name, state.input), ...tool };
}

function parts(payload: HookPayload, name: string, properties: Properties): EventParts {
  const info = isRecord(properties.info) ? properties.info : {};
  switch (name) {
    case 'chat.message':
      return { kind: 'message', role: 'user', content: str(payload.text) ?? textOfParts(payload.parts) };

    case 'tool.execute.before':
      return {
        kind: 'tool_call',
        role: 'assistant',
        content: toolCallContent(str(payload.tool) ?? null, payload.args),
        lifecycleOnly: true,
        toolName: payload.tool,
        toolUseId: payload.callID,
      };

    case 'tool.execute.after': {
      // A shell command that exits non-zero still "succeeds" for OpenCode; we record it as
      // an error, like Claude Code's PostToolUseFailure does.
      const metadata = isRecord(payload.metadata) ? payload.metadata : {};
      const failed = (typeof metadata.exit === 'number' && metadata.exit !== 0) || metadata.error === true;
      const output = str(payload.output) ?? str(payload.title) ?? '';
      const name = str(payload.tool) ?? null;
      return {
        kind: 'tool_result',
        role: 'tool',
        outcome: failed ? 'error' : 'success',
        content: failed
          ? toolResultContent(name, payload.args, { error: `exit ${String(metadata.exit ?? 'error')}${output === '' ? '' : `\n${output}`}` })
          : toolResultContent(name, payload.args, { output }),
        toolName: payload.tool,
        toolUseId: payload.callID,
      };
    }

    case 'message.updated': {
      const role = payload.role ?? info.role;
      const text = str(payload.text) ?? textOfParts(payload.parts);
      if (text !== '' && (role === 'assistant' || role === 'user')) return { kind: 'message', role, content: text };
      return { kind: 'lifecycle', role: 'system', content: '' };
    }

    case 'message.part.updated': {
      const part = isRecord(properties.part) ? properties.part : {};
      if (part.type === 'tool') return toolPart(part);
      return { kind: 'lifecycle', role: 'system', content: part.type === 'text' ? (str(part.text) ?? '') : '' };
    }

    case 'experimental.session.compacting':
      return { kind: 'compaction', role: 'system', content: 'Compacting context', lifecycleOnly: true };

    case 'session.compacted':
      return { kind: 'compaction', role: 'system', content: str(payload.summary) ?? str(payload.text) ?? 'Context compacted', lifecycleOnly: false };

    case 'session.idle':
      // The agent finished its turn and waits for the user (Claude Code's Stop).
      return { kind: 'checkpoint', role: 'system', content: '', lifecycleOnly: true };

    case 'session.error':
      return { kind: 'annotation', role: 'system', content: `Session error: ${errorText(properties.error) ?? errorText(payload.error) ?? 'unknown'}` };

    case 'session.created':
    case 'session.updated': {
      const title = str(info.title);
      const verb = name === 'session.created' ? 'Session created' : 'Session updated';
      return { kind: 'lifecycle', role: 'system', content: title === undefined ? verb : `${verb}: ${title}` };
    }

    case 'session.deleted':
      // OpenCode has no "session ended" event; deletion is the only definite end.
      return { kind: 'lifecycle', role: 'system', content: 'Session deleted', endsSession: true };

    default:
      return { kind: 'lifecycle', role: 'system', content: renderFields(properties) };
  }
}

export const opencodeAdapter: HarnessAdapter = (payload): AdaptedEvent => {
  const event = eventOf(payload);
  const nativeSessionId = requireSessionId(sessionIdOf(payload, event.name, event.properties), 'sessionID');
  const eventName = requireEventName(event.name, 'event');
  const info = isRecord(event.properties.info) ? event.properties.info : {};
  const base: EventBase = {
    nativeSessionId,
    eventName,
    occurredAt: parseTimestamp(payload.time),
    session: sessionFacts({ cwd: payload.directory ?? payload.cwd ?? (eventName.startsWith('session.') ? info.directory : undefined), model: modelOf(payload) }),
  };
  return buildEvent(base, parts(payload, eventName, event.properties));
};
