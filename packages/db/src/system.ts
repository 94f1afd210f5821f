/*
 * @memory-bank/db/system — what legitimately crosses tenants. Imported only by
 * authentication (it establishes scopes), the operator's tools, the archive (sealer,
 * deleter, doctor, rebuild), the process entry points, system health and background
 * maintenance; a test keeps it
 * so (apps/api/test/boundaries.test.ts).
 */
export { openDatabase, type DatabaseHandle, type DatabaseOptions } from './driver';
export { orgScopeOf, ownerScopeOf } from './scope';
export * from './system/migrate';
export * from './system/credentials';
export * from './system/operator';
export * from './system/archive';
export * from './system/doctor';
export * from './system/rebuild';
export * from './system/bulk-import';
export { applyStatsDelta, statsDeltaOf } from './search/stats';
export * from './system/statistics';
export { reindexMemorySearch, type ReindexProgress } from './search/reindex';
export * from './system/health';
export * from './system/idempotency';
export * from './system/oauth';
export * from './system/maintenance';
export * from './system/content-keys';
export * from './system/memory-vectors';
