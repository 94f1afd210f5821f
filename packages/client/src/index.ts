export { createMemoryBankClient, ok, type CursorPath, type MemoryBankClient, type MemoryBankClientOptions, type PageOf } from './client.js';
export { MemoryBankError, type Problem } from './errors.js';
export type { ImportSource, ImportSummary, Memory } from './transfer.js';
export type { RetryEvent, RetryOptions, Send, TokenSource } from './transport.js';
export { FIELD_LIMITS } from './generated/limits.js';
export type { components, operations, paths } from './generated/schema.js';
