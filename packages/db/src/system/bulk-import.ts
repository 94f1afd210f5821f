import { inTransaction, type Database } from '../driver';
import { ownerTagOf, statsOwnerOf, type MemoryRecord } from '../queries/memory';
import { contentKeyOf } from '../content-key';
import { memory } from '../schema';
import { SEARCH_TERMS_VERSION, memorySearchTerms } from '../search/memory-terms';
import { applyStatsDelta, statsDeltaOf, type OwnerStatsDelta } from '../search/stats';

/** A memory for bulk import (no contexts, never updated), owned by `userId` of `orgId`. */
export type ImportedMemory = Pick<MemoryRecord, 'id' | 'orgId' | 'userId' | 'scope' | 'source' | 'content' | 'tags'> & { createdAt: Date };

/**
 * Inserts many memories, of any owners, in one statement (benchmark and test seeding), and
 * adds them to their owners' search statistics in the same transaction.
 */
export async function insertMemoriesBulk(db: Database, rows: readonly ImportedMemory[]): Promise<void> {
  if (rows.length === 0) return;
  const deltas = new Map<string, { orgId: string; ownerId: string; delta: OwnerStatsDelta }>();
  const values = rows.map((row) => {
    const terms = memorySearchTerms(ownerTagOf(row), row.content);
    const ownerId = statsOwnerOf(row);
    const owner = deltas.get(`${row.orgId}/${ownerId}`) ?? { orgId: row.orgId, ownerId, delta: new Map() };
    statsDeltaOf(terms.counts, terms.length, 1, owner.delta);
    deltas.set(`${row.orgId}/${ownerId}`, owner);
    return { ...row, contentKey: contentKeyOf(row.content), searchTerms: terms.searchTerms, searchVersion: SEARCH_TERMS_VERSION, updatedAt: row.createdAt };
  });
  await inTransaction(db, async (tx) => {
    await tx.insert(memory).values(values);
    for (const { orgId, ownerId, delta } of deltas.values()) await applyStatsDelta(tx, orgId, ownerId, delta);
  });
}
