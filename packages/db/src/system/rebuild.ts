import { and, eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '../driver';
import { inTransaction } from '../driver';
import { archiveSegments, orgs, users, workstreamEvents, workstreams, type Harness } from '../schema';
import type { EventDraft } from '../queries/workstream-append';
import { indexTerms, searchTag } from '../search/terms';

/**
 * Writing the ledger back from the archive (`pnpm cli ledger rebuild`). These helpers act
 * on the ids the archive names — every object sits under its org's prefix and carries its
 * workstream id — never on behalf of a caller.
 */

export interface ArchivedWorkstream {
  id: string;
  orgId: string;
  userId: string;
  harness: Harness;
  nativeSessionId: string;
  createdAt: Date;
}

/** Creates the workstream row if it is missing. False when its org or user no longer exists. */
export async function ensureArchivedWorkstream(ex: Executor, workstream: ArchivedWorkstream): Promise<boolean> {
  const [owner] = await ex
    .select({ id: users.id })
    .from(users)
    .innerJoin(orgs, eq(orgs.id, users.orgId))
    .where(and(eq(users.id, workstream.userId), eq(users.orgId, workstream.orgId)));
  if (!owner) return false;
  await ex
    .insert(workstreams)
    .values({ ...workstream, lastEventAt: workstream.createdAt })
    .onDuplicateKeyUpdate({ set: { id: sql`id` } });
  return true;
}

export interface RebuiltEvent extends Omit<EventDraft, 'payload' | 'endsSession'> {
  sequence: number;
}

/**
 * Upserts the events of one stored segment (payloads stay in the archive) and records the
 * segment as stored. Then moves the workstream's counters forward to cover them.
 */
export async function writeRebuiltSegment(
  db: Database,
  workstream: ArchivedWorkstream,
  segment: { key: string; firstSequence: number; lastSequence: number; bytes: number; sha256: string; at: Date },
  events: RebuiltEvent[],
): Promise<void> {
  const tag = searchTag('u', workstream.userId);
  await inTransaction(db, async (tx) => {
    for (const event of events) {
      const row = {
        ...event,
        workstreamId: workstream.id,
        orgId: workstream.orgId,
        userId: workstream.userId,
        harness: workstream.harness,
        searchTerms: indexTerms(tag, event.content),
        payload: null,
        segmentKey: segment.key,
      };
      const { workstreamId: _ws, sequence: _seq, ...changes } = row;
      await tx.insert(workstreamEvents).values(row).onDuplicateKeyUpdate({ set: changes });
    }
    await tx
      .insert(archiveSegments)
      .values({
        key: segment.key,
        orgId: workstream.orgId,
        workstreamId: workstream.id,
        firstSequence: segment.firstSequence,
        lastSequence: segment.lastSequence,
        bytes: segment.bytes,
        sha256: segment.sha256,
        createdAt: segment.at,
        uploadedAt: segment.at,
        nextAttemptAt: segment.at,
      })
      .onDuplicateKeyUpdate({ set: { uploadedAt: sql`COALESCE(${archiveSegments.uploadedAt}, ${segment.at})`, sha256: segment.sha256, bytes: segment.bytes } });
    const lastReceived = events.reduce((latest, event) => (event.receivedAt > latest ? event.receivedAt : latest), workstream.createdAt);
    await tx
      .update(workstreams)
      .set({
        lastSequence: sql`GREATEST(${workstreams.lastSequence}, ${segment.lastSequence})`,
        archivedThrough: sql`GREATEST(${workstreams.archivedThrough}, ${segment.lastSequence})`,
        lastEventAt: sql`GREATEST(${workstreams.lastEventAt}, ${lastReceived})`,
      })
      .where(eq(workstreams.id, workstream.id));
  });
}

/** Ledger rows of a range, for comparing with what the archive holds (doctor). */
export async function ledgerFingerprints(
  ex: Executor,
  workstreamId: string,
  range: { first: number; last: number },
): Promise<Map<number, { eventId: string; payloadSha256: string }>> {
  const rows = await ex
    .select({ sequence: workstreamEvents.sequence, eventId: workstreamEvents.eventId, payloadSha256: workstreamEvents.payloadSha256 })
    .from(workstreamEvents)
    .where(
      and(
        eq(workstreamEvents.workstreamId, workstreamId),
        sql`${workstreamEvents.sequence} BETWEEN ${range.first} AND ${range.last}`,
      ),
    );
  return new Map(rows.map((row) => [row.sequence, { eventId: row.eventId, payloadSha256: row.payloadSha256 }]));
}
