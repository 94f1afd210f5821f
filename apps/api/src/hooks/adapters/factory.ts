/**
 * Factory Droid (docs.factory.ai/reference/hooks-reference). `~/.factory/hooks.json` or a
 * project's `.factory/hooks.json` holds Claude-Code-shaped hook groups, and Droid runs each
 * command with a Claude-Code-shaped payload on stdin: `session_id`, `transcript_path`,
 * `cwd`, `permission_mode`, `hook_event_name`, and per event `source`, `prompt`,
 * `tool_name` (Droid's tools: `Execute`, `Read`, `Edit`, `Create`, `Grep`…), `tool_input`,
 * `tool_response`, `message`, `trigger`, `reason`… — mapped exactly like Claude Code's
 * events of the same name. A tool event without `tool_use_id` is paired by a derived id.
 */
import type { HarnessAdapter } from '../types';
import { adaptHookEvent } from './claude-code';
import { requireEventName, requireSessionId, sessionFacts } from './shared';

export const factoryAdapter: HarnessAdapter = (payload) =>
  adaptHookEvent(
    payload,
    {
      // Droid's reference spells the common fields in snake_case; some descriptions of its
      // payloads spell them in camelCase (sessionId, hookEventName, transcriptPath): both are read.
      nativeSessionId: requireSessionId(payload.session_id ?? payload.sessionId, 'session_id'),
      eventName: requireEventName(payload.hook_event_name ?? payload.hookEventName, 'hook_event_name'),
      occurredAt: null, // Droid's payloads carry no timestamp.
      session: sessionFacts({ cwd: payload.cwd, transcriptPath: payload.transcript_path ?? payload.transcriptPath, model: payload.model }),
    },
    { deriveToolIds: true },
  );
