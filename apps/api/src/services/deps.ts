import type { Database, OrgScope } from '@memory-bank/db';
import type { Logger } from 'pino';
import type { CredentialChanges } from '../auth/credential-cache';
import type { Clock } from '../clock';
import type { Config } from '../config';

/** What services need from the outside world. */
export interface ServiceDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  config: Config;
  /** Told of every change to who a credential is and what it may do (the key cache forgets). */
  credentials: CredentialChanges;
  /** Told of memories whose save, import or text change has committed (the embedding queue embeds them in the background). */
  memoryWrites?: MemoryWrites;
}

/** Memories written, as the embedding subsystem hears of them (embeddings/index.ts). */
export interface MemoryWrites {
  /** Saved, imported or changed text: to embed. */
  written(org: OrgScope, memoryIds: readonly string[]): void;
  /** Their text changed: their old vectors must not answer any more. */
  changed(org: OrgScope, memoryIds: readonly string[]): void;
  /** Deleted (DELETE /v1/memory/{id}, with the versions it took): out of this process's semantic cache at once. */
  removed(org: OrgScope, memoryIds: readonly string[]): void;
}
