/*
 * @memory-bank/db — what tenant code may use: the schema, ids, and query helpers that
 * each take an owner or org scope and put it in the WHERE clause. What crosses tenants
 * (authentication's lookups, the operator, the sealer and deleter, the doctor, the
 * rebuild, bulk import, migrations, the readiness ping) is in `@memory-bank/db/system`.
 */
export * from './schema';
export type { Database, Executor, Transaction, Schema } from './driver';
export * from './errors';
export * from './ids';
export { isOrgAdmin, type OrgScope, type OwnerScope } from './scope';
export * from './search/terms';
export { SEARCH_TERMS_VERSION, memorySearchTerms } from './search/memory-terms';
export type { SearchMatch, Highlight, MatchKind } from './search/rank';
export { spellingDictionary, type SpellingDictionary, type WordList } from './search/spelling';
export type { StemLanguage } from './search/language';
export { SEMANTIC_SCORE_CAP, type SemanticHit } from './search/fusion';
export type { Correction } from './search/corrections';
export * from './archive-layout';
export { inTransaction } from './driver';
export { createGroupCommit, type GroupCommitOptions } from './group-commit';
export { poolUsage, observeConnectionAcquisition, type PoolUsage, type StatementTracer } from './driver';
export * from './queries/orgs';
export * from './queries/api-keys';
export * from './queries/memory';
export * from './queries/memory-use';
export * from './queries/workstream-append';
export * from './queries/workstream-read';
export * from './queries/workstream-deletion';
export * from './queries/retention';
export * from './queries/audit';
export * from './queries/oidc';
export * from './queries/idempotency';
export * from './queries/recall';
export * from './queries/oauth';
export * from './content-key';
export * from './queries/memory-vectors';
export { embeddableLanguage, type EmbeddingLanguage } from './vectors/language';
