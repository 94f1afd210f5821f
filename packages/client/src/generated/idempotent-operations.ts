// Generated from the service's /openapi.json by `pnpm --filter @memory-bank/client generate`. Do not edit.

/** Operations that honour an `Idempotency-Key` header (the client sends one on these). */
export const IDEMPOTENT_OPERATIONS: ReadonlySet<string> = new Set([
  'POST /v1/hooks/{harness}',
  'POST /v1/memory',
]);
