import { readFileSync } from 'node:fs';
import type { Harness } from '../../src/hooks/types';
import type { RequestBody } from './http';

/** A realistic payload from test/fixtures/hooks/<harness>/<name>.json, optionally changed. */
export function fixture(harness: Harness, name: string, changes: Record<string, unknown> = {}): Record<string, unknown> {
  const payload = JSON.parse(readFileSync(new URL(`../fixtures/hooks/${harness}/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
  return { ...payload, ...changes };
}

/**
 * Settings for hook scripts and the OpenCode/Kilo plugin run against a live test service where
 * what they print or send is the point: a loaded machine may take longer than the harness
 * deadlines the defaults keep, and then they rightly give up. Tests of those deadlines (the
 * service stopped or hung, git hung) use the defaults.
 */
export const UNHURRIED_HOOKS = { MEMORY_BANK_RECALL_TIMEOUT: '30', MEMORY_BANK_GIT_TIMEOUT: '10' } as const;
/** The settings of the hook scripts and the plugin that tests change in process.env (restored after). */
export const HOOK_SETTINGS = ['MEMORY_BANK_URL', 'MEMORY_BANK_API_KEY', 'MEMORY_BANK_SPOOL', ...Object.keys(UNHURRIED_HOOKS)] as const;

let sessions = 0;
/** A fresh Claude Code session id, so suites sharing the database never share a workstream. */
export function newSessionId(): string {
  return `test-${process.pid}-${Date.now().toString(36)}-${sessions++}`;
}

/** The Claude Code fixtures of one realistic session, in order, all on `sessionId`. */
export function claudeSession(sessionId: string): Record<string, unknown>[] {
  return [
    'session-start',
    'user-prompt-submit',
    'pre-tool-use-bash',
    'post-tool-use-bash',
    'post-tool-use-failure',
    'notification',
    'pre-compact',
    'post-compact',
    'stop',
    'session-end',
  ].map((name) => fixture('claude-code', name, { session_id: sessionId }));
}

type HookBatch = RequestBody<'post', '/v1/hooks/batch'>;
/** One event of a batch. */
export type BatchEvent = HookBatch['events'][number];
/** A POST /v1/hooks/batch body. */
export const batchOf = (events: BatchEvent[]): HookBatch => ({ events });
