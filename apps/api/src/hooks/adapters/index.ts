/**
 * One pure adapter per harness: a sanitized hook payload in, one AdaptedEvent out (or an
 * AdapterError for a payload without a session id or event name). docs/hooks.md has the
 * mapping table.
 */
import type { Harness, HarnessAdapter, HookPayload } from '../types';
import { claudeCodeAdapter } from './claude-code';
import { codexAdapter } from './codex';
import { genericAdapter } from './generic';
import { opencodeAdapter } from './opencode';
import { isRecallRecord, recallAdapter } from './recall';

export const HARNESS_ADAPTERS: Record<Harness, HarnessAdapter> = {
  'claude-code': claudeCodeAdapter,
  codex: codexAdapter,
  opencode: opencodeAdapter,
  generic: genericAdapter,
};

/**
 * The adapter for a payload the ledger holds (rebuild): Memory Bank's own recall records,
 * which ingestion never accepts from a harness, or the harness's adapter.
 */
export function storedPayloadAdapter(harness: Harness, payload: HookPayload): HarnessAdapter {
  return isRecallRecord(payload) ? recallAdapter : HARNESS_ADAPTERS[harness];
}

export { claudeCodeAdapter, codexAdapter, genericAdapter, opencodeAdapter };
