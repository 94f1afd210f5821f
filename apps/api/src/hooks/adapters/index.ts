/**
 * One pure adapter per harness: a sanitized hook payload in, one AdaptedEvent out (or an
 * AdapterError for a payload without a session id or event name). docs/hooks.md has the
 * mapping table.
 */
import type { Harness, HarnessAdapter } from '../types';
import { claudeCodeAdapter } from './claude-code';
import { codexAdapter } from './codex';
import { genericAdapter } from './generic';
import { opencodeAdapter } from './opencode';

export const HARNESS_ADAPTERS: Record<Harness, HarnessAdapter> = {
  'claude-code': claudeCodeAdapter,
  codex: codexAdapter,
  opencode: opencodeAdapter,
  generic: genericAdapter,
};

export { claudeCodeAdapter, codexAdapter, genericAdapter, opencodeAdapter };
