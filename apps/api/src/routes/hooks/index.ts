import type { ApiApp } from '../../http/env';
import { registerPostHooksBatch } from './batch';
import { registerPostHook } from './ingest';

export function registerHookRoutes(app: ApiApp) {
  // Before /v1/hooks/{harness}, so "batch" is not taken for a harness.
  registerPostHooksBatch(app);
  registerPostHook(app);
}
