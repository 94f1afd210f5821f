import type { Executor } from '../client';
import { ownerTagOf, type MemoryRecord } from '../queries/memory';
import { memory } from '../schema';
import { indexTerms } from '../search/terms';

/** A memory for bulk import (no contexts, never updated), owned by `userId` of `orgId`. */
export type ImportedMemory = Omit<MemoryRecord, 'updatedAt' | 'contexts'>;

/** Inserts many memories, of any owners, in one statement (imports, benchmark seeding). */
export async function insertMemoriesBulk(ex: Executor, rows: readonly ImportedMemory[]): Promise<void> {
  if (rows.length === 0) return;
  await ex.insert(memory).values(
    rows.map((row) => ({ ...row, searchTerms: indexTerms(ownerTagOf(row), row.content), updatedAt: row.createdAt })),
  );
}
