import {
  deleteOrgMemory,
  deleteRetainedSegments,
  dueMemories,
  inTransaction,
  lockDueMemories,
  retentionCutoff,
  segmentsPastRetention,
  statsOwnerOf,
  type Database,
  type DueMemory,
  type MemoryDue,
  type OrgScope,
} from '@memory-bank/db';
import type { Archiver } from '../archive/sealer';
import { RETENTION_LIMITS } from '../limits';

/** What one step of a job removed, and whether more of it may be due. */
export interface RetentionStep {
  memories: number;
  events: number;
  segments: number;
  workstreams: number;
  more: boolean;
}

const nothing: RetentionStep = { memories: 0, events: 0, segments: 0, workstreams: 0, more: false };

export type Retention = ReturnType<typeof createRetention>;

/**
 * What the maintenance loop deletes of one org, a bounded batch at a time: expired
 * memories, memories its `memory_retention_days` no longer keeps (pinned ones stay), and
 * workstream events its `workstream_retention_days` no longer keeps, with their archived
 * segments. Deletion is real — rows, contexts, search statistics and FULLTEXT entries in the
 * transaction, objects through the archive's deletion queue — and every step reads what is
 * due from the database, so a run cut short is finished by the next.
 */
export function createRetention({ db, archiver }: { db: Database; archiver: Archiver }) {
  /**
   * Deletes these memories of one org that are still due when locked, each owner's in one
   * transaction, through the same per-memory deletion as DELETE /v1/memory/{id} (contexts
   * cascade; the terms leave the owner's statistics). Only the memory itself goes: the
   * memories it superseded keep their `superseded_by` and stay out of reads.
   */
  async function deleteDueMemories(org: OrgScope, found: readonly DueMemory[], due: MemoryDue): Promise<number> {
    const byOwner = new Map<string, string[]>();
    for (const row of found) byOwner.get(statsOwnerOf(row))?.push(row.id) ?? byOwner.set(statsOwnerOf(row), [row.id]);
    let deleted = 0;
    for (const [ownerId, ids] of byOwner) {
      deleted += await inTransaction(db, async (tx) => {
        let n = 0;
        for (const id of await lockDueMemories(tx, org, { ownerId, ids }, due)) if (await deleteOrgMemory(tx, org, id)) n += 1;
        return n;
      });
    }
    return deleted;
  }

  return {
    /** Expired memories of one org (the loop finds them in every org). */
    async expireMemories(org: OrgScope, found: readonly DueMemory[], now: Date): Promise<number> {
      return deleteDueMemories(org, found, { expiredBy: now });
    },

    /** One batch of the org's unpinned memories not updated within `days` days. */
    async retainMemories(org: OrgScope, days: number, now: Date): Promise<RetentionStep> {
      const due: MemoryDue = { notUpdatedSince: retentionCutoff(now, days) };
      const found = await dueMemories(db, org, due, RETENTION_LIMITS.batch);
      return { ...nothing, memories: await deleteDueMemories(org, found, due), more: found.length === RETENTION_LIMITS.batch };
    },

    /**
     * One batch of the org's archived segments whose events were all received more than
     * `days` days ago: the events leave the ledger, the segments the object store (deleted
     * right after the commit; a store that fails keeps them queued, and the archiver retries).
     */
    async retainWorkstreamEvents(org: OrgScope, days: number, now: Date): Promise<RetentionStep> {
      const before = retentionCutoff(now, days);
      const segments = await segmentsPastRetention(db, org, before, RETENTION_LIMITS.batch);
      if (segments.length === 0) return nothing;
      const deleted = await inTransaction(db, (tx) => deleteRetainedSegments(tx, org, segments.map((segment) => segment.key), before, now));
      await archiver.purgeObjects(deleted.objectKeys, []);
      return { memories: 0, events: deleted.events, segments: deleted.segments, workstreams: deleted.workstreams, more: segments.length === RETENTION_LIMITS.batch };
    },
  };
}
