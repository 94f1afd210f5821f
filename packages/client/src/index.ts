export { createMemoryBankClient, ok, type CursorPath, type MemoryBankClient, type MemoryBankClientOptions, type PageOf } from './client';
export { MemoryBankError, type Problem } from './errors';
export type { ImportSource, ImportSummary, Memory } from './transfer';
export type { RetryEvent, RetryOptions, Send, TokenSource } from './transport';
export type { components, operations, paths } from './generated/schema';
