import { and, asc, between, eq, gt, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Database, Executor } from '../driver';
import { inTransaction, placeholderValue, preparedOn } from '../driver';
import { claimColumns, segmentEventColumns, segmentKey, type SegmentClaim, type SegmentEvent } from '../archive-layout';
import { SEGMENT_MAX_BYTES, SEGMENT_MAX_EVENTS } from '../queries/workstream-append';
import { archiveDeletions, archiveSegments, workstreamEvents, workstreams, type WorkstreamRow } from '../schema';

/**
 * The archive's bookkeeping. The sealer and the deleter are system processes: they act on
 * every tenant's rows by id, never on behalf of a caller, and always keep a tenant's
 * objects under that tenant's prefix.
 */

/** Workstreams with events to seal now: old enough, big enough, or ended. */
export async function dueForSealing(ex: Executor, options: { olderThan: Date; limit: number; all?: boolean }): Promise<string[]> {
  const rows = await ex
    .select({ id: workstreams.id })
    .from(workstreams)
    .where(
      and(
        isNotNull(workstreams.pendingSince),
        options.all
          ? undefined
          : or(
              lte(workstreams.pendingSince, options.olderThan),
              eq(workstreams.sealRequested, true),
              sql`${workstreams.pendingCount} >= ${SEGMENT_MAX_EVENTS}`,
              sql`${workstreams.pendingBytes} >= ${SEGMENT_MAX_BYTES}`,
            ),
      ),
    )
    .orderBy(asc(workstreams.pendingSince))
    .limit(options.limit);
  return rows.map((row) => row.id);
}

/**
 * Assigns a workstream's pending events to segments, in one short transaction under the
 * workstream's row lock (the lock ingestion takes too): each event lands in exactly one
 * segment, whatever the number of sealing processes. Full segments (256 events or 1 MiB)
 * are always claimed; the partial tail only when it is old enough, the session ended, or
 * `force` (shutdown).
 */
export async function claimSegments(
  db: Database,
  workstreamId: string,
  options: { now: Date; olderThan: Date; force: boolean; maxSegments: number; leaseUntil: Date },
): Promise<SegmentClaim[]> {
  return inTransaction(
    db,
    async (tx) => {
      const [ws] = await preparedOn(tx, 'claim:workstream', (on) => on.select().from(workstreams).where(eq(workstreams.id, sql.placeholder('id'))).for('update')).execute({ id: workstreamId });
      if (!ws || ws.pendingCount === 0) return [];
      const rows = await preparedOn(tx, 'claim:events', (on) =>
        on
          .select({ sequence: workstreamEvents.sequence, bytes: workstreamEvents.payloadBytes, receivedAt: workstreamEvents.receivedAt })
          .from(workstreamEvents)
          .where(and(eq(workstreamEvents.workstreamId, sql.placeholder('id')), gt(workstreamEvents.sequence, sql.placeholder('after'))))
          .orderBy(asc(workstreamEvents.sequence))
          .limit(sql.placeholder('limit')),
      ).execute({ id: workstreamId, after: ws.archivedThrough, limit: options.maxSegments * SEGMENT_MAX_EVENTS + 1 });

      const chunks: { first: number; last: number; count: number; bytes: number; oldest: Date; full: boolean }[] = [];
      for (const row of rows) {
        const open = chunks.at(-1);
        if (open && !open.full && open.count < SEGMENT_MAX_EVENTS && open.bytes + row.bytes <= SEGMENT_MAX_BYTES) {
          open.last = row.sequence;
          open.count += 1;
          open.bytes += row.bytes;
          open.full = open.count >= SEGMENT_MAX_EVENTS;
        } else {
          if (open) open.full = true;
          if (chunks.length === options.maxSegments) break;
          chunks.push({ first: row.sequence, last: row.sequence, count: 1, bytes: row.bytes, oldest: row.receivedAt, full: false });
        }
      }
      const tail = chunks.at(-1);
      if (tail && !tail.full && !(options.force || ws.sealRequested || tail.oldest <= options.olderThan)) chunks.pop();
      if (chunks.length === 0) return [];

      const claims = chunks.map((chunk) => ({
        key: segmentKey(ws.orgId, ws.id, chunk.first, chunk.last),
        orgId: ws.orgId,
        workstreamId: ws.id,
        firstSequence: chunk.first,
        lastSequence: chunk.last,
      }));
      // The claimer uploads at once; others retry only if it has not stored them by leaseUntil.
      await tx.insert(archiveSegments).values(claims.map((claim) => ({ ...claim, createdAt: options.now, nextAttemptAt: options.leaseUntil })));
      const assign = preparedOn(tx, 'claim:assign', (on) =>
        on
          .update(workstreamEvents)
          .set({ segmentKey: placeholderValue('key') })
          .where(and(eq(workstreamEvents.workstreamId, sql.placeholder('id')), between(workstreamEvents.sequence, sql.placeholder('first'), sql.placeholder('last')))),
      );
      for (const claim of claims) await assign.execute({ key: claim.key, id: ws.id, first: claim.firstSequence, last: claim.lastSequence });
      const claimedThrough = claims.at(-1)!.lastSequence;
      const claimedCount = chunks.reduce((sum, chunk) => sum + chunk.count, 0);
      const claimedBytes = chunks.reduce((sum, chunk) => sum + chunk.bytes, 0);
      const next = rows.find((row) => row.sequence > claimedThrough);
      const remaining = ws.pendingCount - claimedCount;
      await preparedOn(tx, 'claim:advance', (on) =>
        on
          .update(workstreams)
          .set({
            archivedThrough: placeholderValue('through'),
            pendingCount: placeholderValue('count'),
            pendingBytes: placeholderValue('bytes'),
            pendingSince: placeholderValue('since'),
            sealRequested: placeholderValue('sealRequested'),
          })
          .where(eq(workstreams.id, sql.placeholder('id'))),
      ).execute({
        through: claimedThrough,
        count: Math.max(0, remaining),
        bytes: Math.max(0, ws.pendingBytes - claimedBytes),
        since: remaining > 0 ? (next?.receivedAt ?? ws.pendingSince) : null,
        sealRequested: remaining > 0 && ws.sealRequested,
        id: ws.id,
      });
      return claims;
    },
  );
}

/** The events of a claimed segment (and only those its claim assigned to it). */
const ofSegment = and(
  eq(workstreamEvents.workstreamId, sql.placeholder('id')),
  between(workstreamEvents.sequence, sql.placeholder('first'), sql.placeholder('last')),
  eq(workstreamEvents.segmentKey, sql.placeholder('key')),
);
const segmentParams = (claim: SegmentClaim) => ({ id: claim.workstreamId, first: claim.firstSequence, last: claim.lastSequence, key: claim.key });

export async function segmentEvents(ex: Executor, claim: SegmentClaim): Promise<SegmentEvent[]> {
  return preparedOn(ex, 'segment:events', (on) => on.select(segmentEventColumns).from(workstreamEvents).where(ofSegment).orderBy(asc(workstreamEvents.sequence))).execute(segmentParams(claim));
}

/** A workstream by id, for the archive's own use (manifest, rebuild). */
export async function findWorkstreamForArchive(ex: Executor, workstreamId: string): Promise<WorkstreamRow | null> {
  const [row] = await preparedOn(ex, 'archive:workstream', (on) => on.select().from(workstreams).where(eq(workstreams.id, sql.placeholder('id')))).execute({ id: workstreamId });
  return row ?? null;
}

/**
 * Records that a segment is in object storage and drops the payloads the ledger kept
 * for it. 'gone' when the segment was deleted meanwhile (its workstream was deleted):
 * the caller must delete the object it just wrote.
 */
export async function markSegmentStored(
  db: Database,
  claim: SegmentClaim,
  stored: { sha256: string; bytes: number; at: Date },
): Promise<'stored' | 'gone'> {
  return inTransaction(db, async (tx) => {
    const [segment] = await preparedOn(tx, 'stored:lock', (on) =>
      on.select({ uploadedAt: archiveSegments.uploadedAt }).from(archiveSegments).where(eq(archiveSegments.key, sql.placeholder('key'))).for('update'),
    ).execute({ key: claim.key });
    if (!segment) return 'gone';
    if (!segment.uploadedAt) {
      await preparedOn(tx, 'stored:segment', (on) =>
        on
          .update(archiveSegments)
          .set({ uploadedAt: placeholderValue('at'), sha256: placeholderValue('sha256'), bytes: placeholderValue('bytes'), lastError: null })
          .where(eq(archiveSegments.key, sql.placeholder('key'))),
      ).execute({ at: stored.at, sha256: stored.sha256, bytes: stored.bytes, key: claim.key });
    }
    await preparedOn(tx, 'stored:drop-payloads', (on) => on.update(workstreamEvents).set({ payload: null }).where(ofSegment)).execute(segmentParams(claim));
    return 'stored';
  });
}

/**
 * Claimed segments not yet stored whose next attempt is due, leased to this process for
 * `leaseMs` (another process skips them meanwhile; identical bytes make a double upload
 * harmless anyway).
 */
export async function leaseUnstoredSegments(db: Database, options: { now: Date; leaseMs: number; limit: number }): Promise<SegmentClaim[]> {
  const due = await db
    .select(claimColumns)
    .from(archiveSegments)
    .where(and(isNull(archiveSegments.uploadedAt), lte(archiveSegments.nextAttemptAt, options.now)))
    .orderBy(asc(archiveSegments.nextAttemptAt))
    .limit(options.limit);
  const leased: SegmentClaim[] = [];
  const until = new Date(options.now.getTime() + options.leaseMs);
  for (const segment of due) {
    const [result] = await db
      .update(archiveSegments)
      .set({ nextAttemptAt: until })
      .where(and(eq(archiveSegments.key, segment.key), isNull(archiveSegments.uploadedAt), lte(archiveSegments.nextAttemptAt, options.now)));
    if (result.affectedRows > 0) leased.push(segment);
  }
  return leased;
}

/**
 * Extends the lease on segments a live process is still storing (its heartbeat), so the
 * lease can be short: a crashed process's claims fall due a few seconds later. Only ever
 * pushes nextAttemptAt later, so a backoff the holder recorded meanwhile is kept.
 */
export async function renewSegmentLeases(ex: Executor, keys: string[], until: Date): Promise<void> {
  if (keys.length === 0) return;
  await ex
    .update(archiveSegments)
    .set({ nextAttemptAt: until })
    .where(and(inArray(archiveSegments.key, keys), isNull(archiveSegments.uploadedAt), lt(archiveSegments.nextAttemptAt, until)));
}

export async function recordSegmentFailure(ex: Executor, key: string, failure: { error: string; retryAt: Date }): Promise<void> {
  await ex
    .update(archiveSegments)
    .set({ attempts: sql`${archiveSegments.attempts} + 1`, lastError: failure.error.slice(0, 512), nextAttemptAt: failure.retryAt })
    .where(eq(archiveSegments.key, key));
}

/** Whether a claimed segment still waits for its object ('pending'), has it ('stored'), or was deleted ('missing'). */
export async function segmentState(ex: Executor, key: string): Promise<{ state: 'pending' | 'stored' | 'missing'; attempts: number }> {
  const [row] = await preparedOn(ex, 'segment:state', (on) =>
    on.select({ uploadedAt: archiveSegments.uploadedAt, attempts: archiveSegments.attempts }).from(archiveSegments).where(eq(archiveSegments.key, sql.placeholder('key'))),
  ).execute({ key });
  if (!row) return { state: 'missing', attempts: 0 };
  return { state: row.uploadedAt ? 'stored' : 'pending', attempts: row.attempts };
}

export async function dueDeletions(ex: Executor, options: { now: Date; limit: number; keys?: string[] }): Promise<string[]> {
  const rows = await ex
    .select({ key: archiveDeletions.key })
    .from(archiveDeletions)
    .where(and(lte(archiveDeletions.nextAttemptAt, options.now), options.keys ? inArray(archiveDeletions.key, options.keys) : undefined))
    .orderBy(asc(archiveDeletions.nextAttemptAt))
    .limit(options.limit);
  return rows.map((row) => row.key);
}

export async function completeDeletion(ex: Executor, key: string): Promise<void> {
  await ex.delete(archiveDeletions).where(eq(archiveDeletions.key, key));
}

export async function recordDeletionFailure(ex: Executor, key: string, failure: { error: string; retryAt: Date }): Promise<void> {
  await ex
    .update(archiveDeletions)
    .set({ attempts: sql`${archiveDeletions.attempts} + 1`, lastError: failure.error.slice(0, 512), nextAttemptAt: failure.retryAt })
    .where(eq(archiveDeletions.key, key));
}
