/**
 * Memory Bank's own ledger records of what it recalled into a session (kind `recall`).
 * They are archived like hook payloads and rebuilt by this adapter, so their payload
 * carries a key no harness payload may: ingestion refuses it (see isRecallRecord).
 */
import type { AdaptedEvent, HarnessAdapter, HookPayload } from '../types';
import { buildEvent, requireSessionId, sessionFacts } from './shared';
import { str } from './text';

/** The top-level key that marks a recall record; reserved, refused in hook payloads. */
export const RECALL_RECORD_KEY = 'memory_bank_recall';
export const RECALL_EVENT_NAME = 'Recall';

const MEMORY_ID = /\bmem_[0-9A-HJKMNP-TV-Z]{26}\b/g;

export type RecallTrigger = 'session_start' | 'prompt';

export interface RecallRecord {
  trigger: RecallTrigger;
  memory_ids: string[];
  /** What was injected, as injected. */
  text: string;
}

export function isRecallRecord(payload: HookPayload): boolean {
  return Object.hasOwn(payload, RECALL_RECORD_KEY);
}

/** The payload recorded for one recall into a harness session. */
export function recallPayload(nativeSessionId: string, record: RecallRecord, cwd: string | undefined): HookPayload {
  return { session_id: nativeSessionId, ...(cwd === undefined ? {} : { cwd }), [RECALL_RECORD_KEY]: record };
}

/** The first line of a recall event's content: its trigger and the ids it showed. */
function recallHead(trigger: string, ids: readonly string[]): string {
  return `Recalled on ${trigger}: ${ids.length > 0 ? ids.join(' ') : 'no memories'}`;
}

/** The memory ids a recall event's first line lists. */
export function idsInRecallHead(head: string): string[] {
  return head.match(MEMORY_ID) ?? [];
}

export const recallAdapter: HarnessAdapter = (payload): AdaptedEvent => {
  const record = (typeof payload[RECALL_RECORD_KEY] === 'object' && payload[RECALL_RECORD_KEY] !== null ? payload[RECALL_RECORD_KEY] : {}) as Record<string, unknown>;
  const ids = Array.isArray(record.memory_ids) ? record.memory_ids.filter((id): id is string => typeof id === 'string' && idsInRecallHead(id).length === 1) : [];
  const base = {
    nativeSessionId: requireSessionId(payload.session_id, 'session_id'),
    eventName: RECALL_EVENT_NAME,
    occurredAt: null,
    session: sessionFacts({ cwd: payload.cwd }),
  };
  const text = str(record.text) ?? '';
  return buildEvent(base, { kind: 'recall', role: 'system', content: `${recallHead(str(record.trigger) ?? 'prompt', ids)}\n\n${text}`, lifecycleOnly: false });
};
