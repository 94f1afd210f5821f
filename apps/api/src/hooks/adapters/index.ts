/**
 * One pure adapter per harness: a sanitized hook payload in, one AdaptedEvent out (or an
 * AdapterError for a payload without a session id or event name). docs/hooks.md has the
 * mapping table.
 */
import type { Harness, HarnessAdapter, HookPayload } from '../types';
import { claudeCodeAdapter } from './claude-code';
import { clineAdapter } from './cline';
import { codexAdapter } from './codex';
import { copilotAdapter } from './copilot';
import { cursorAdapter } from './cursor';
import { factoryAdapter } from './factory';
import { geminiCliAdapter } from './gemini-cli';
import { genericAdapter } from './generic';
import { kimiAdapter } from './kimi';
import { opencodeAdapter } from './opencode';
import { isRecallRecord, recallAdapter } from './recall';

export const HARNESS_ADAPTERS: Record<Harness, HarnessAdapter> = {
  'claude-code': claudeCodeAdapter,
  codex: codexAdapter,
  opencode: opencodeAdapter,
  generic: genericAdapter,
  'gemini-cli': geminiCliAdapter,
  cursor: cursorAdapter,
  cline: clineAdapter,
  kimi: kimiAdapter,
  factory: factoryAdapter,
  // Kilo's plugins are OpenCode's (Kilo CLI is built on OpenCode): the same plugin, the same payloads.
  kilo: opencodeAdapter,
  copilot: copilotAdapter,
};

/**
 * The adapter for a payload the ledger holds (rebuild): Memory Bank's own recall records,
 * which ingestion never accepts from a harness, or the harness's adapter.
 */
export function storedPayloadAdapter(harness: Harness, payload: HookPayload): HarnessAdapter {
  return isRecallRecord(payload) ? recallAdapter : HARNESS_ADAPTERS[harness];
}

export { claudeCodeAdapter, clineAdapter, codexAdapter, copilotAdapter, cursorAdapter, factoryAdapter, geminiCliAdapter, genericAdapter, kimiAdapter, opencodeAdapter };
