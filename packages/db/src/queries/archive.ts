import { and, asc, between, eq, gt, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { archiveDeletions, archiveSegments, workstreamEvents, workstreams, type Harness, type WorkstreamRow } from '../schema';
import type { OrgScope, OwnerScope } from '../scope';
import { SEGMENT_MAX_BYTES, SEGMENT_MAX_EVENTS } from './workstreams';

/**
 * The archive's bookkeeping. The sealer and the deleter are system processes: they act on
 * every tenant's rows by id, never on behalf of a caller, and always keep a tenant's
 * objects under that tenant's prefix.
 */

export interface SegmentClaim {
  key: string;
  orgId: string;
  workstreamId: string;
  firstSequence: number;
  lastSequence: number;
}

/** The columns of archive_segments that make a SegmentClaim. */
export const claimColumns = {
  key: archiveSegments.key,
  orgId: archiveSegments.orgId,
  workstreamId: archiveSegments.workstreamId,
  firstSequence: archiveSegments.firstSequence,
  lastSequence: archiveSegments.lastSequence,
};

const pad = (sequence: number) => String(sequence).padStart(16, '0');

export function workstreamArchivePrefix(orgId: string, workstreamId: string): string {
  return `orgs/${orgId}/workstreams/${workstreamId}/`;
}

export function segmentKey(orgId: string, workstreamId: string, first: number, last: number): string {
  return `${workstreamArchivePrefix(orgId, workstreamId)}segments/${pad(first)}-${pad(last)}.jsonl`;
}

/** Who a workstream belongs to, written once beside its segments so the archive alone can rebuild the ledger. */
export function workstreamManifestKey(orgId: string, workstreamId: string): string {
  return `${workstreamArchivePrefix(orgId, workstreamId)}workstream.json`;
}

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
  return db.transaction(
    async (tx) => {
      const [ws] = await tx.select().from(workstreams).where(eq(workstreams.id, workstreamId)).for('update');
      if (!ws || ws.pendingCount === 0) return [];
      const rows = await tx
        .select({ sequence: workstreamEvents.sequence, bytes: workstreamEvents.payloadBytes, receivedAt: workstreamEvents.receivedAt })
        .from(workstreamEvents)
        .where(and(eq(workstreamEvents.workstreamId, workstreamId), gt(workstreamEvents.sequence, ws.archivedThrough)))
        .orderBy(asc(workstreamEvents.sequence))
        .limit(options.maxSegments * SEGMENT_MAX_EVENTS + 1);

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
      for (const claim of claims) {
        await tx
          .update(workstreamEvents)
          .set({ segmentKey: claim.key })
          .where(and(eq(workstreamEvents.workstreamId, ws.id), between(workstreamEvents.sequence, claim.firstSequence, claim.lastSequence)));
      }
      const claimedThrough = claims.at(-1)!.lastSequence;
      const claimedCount = chunks.reduce((sum, chunk) => sum + chunk.count, 0);
      const claimedBytes = chunks.reduce((sum, chunk) => sum + chunk.bytes, 0);
      const next = rows.find((row) => row.sequence > claimedThrough);
      const remaining = ws.pendingCount - claimedCount;
      await tx
        .update(workstreams)
        .set({
          archivedThrough: claimedThrough,
          pendingCount: Math.max(0, remaining),
          pendingBytes: Math.max(0, ws.pendingBytes - claimedBytes),
          pendingSince: remaining > 0 ? (next?.receivedAt ?? ws.pendingSince) : null,
          sealRequested: remaining > 0 && ws.sealRequested,
        })
        .where(eq(workstreams.id, ws.id));
      return claims;
    },
  );
}

/** What a segment's lines are built from. */
export interface SegmentEvent {
  eventId: string;
  workstreamId: string;
  sequence: number;
  harness: Harness;
  event: string;
  occurredAt: Date;
  receivedAt: Date;
  payloadSha256: string;
  payload: string | null;
}

const segmentEventColumns = {
  eventId: workstreamEvents.eventId,
  workstreamId: workstreamEvents.workstreamId,
  sequence: workstreamEvents.sequence,
  harness: workstreamEvents.harness,
  event: workstreamEvents.event,
  occurredAt: workstreamEvents.occurredAt,
  receivedAt: workstreamEvents.receivedAt,
  payloadSha256: workstreamEvents.payloadSha256,
  payload: workstreamEvents.payload,
};

export async function segmentEvents(ex: Executor, claim: SegmentClaim): Promise<SegmentEvent[]> {
  return ex
    .select(segmentEventColumns)
    .from(workstreamEvents)
    .where(
      and(
        eq(workstreamEvents.workstreamId, claim.workstreamId),
        between(workstreamEvents.sequence, claim.firstSequence, claim.lastSequence),
        eq(workstreamEvents.segmentKey, claim.key),
      ),
    )
    .orderBy(asc(workstreamEvents.sequence));
}

/** A workstream by id, for the archive's own use (manifest, rebuild). */
export async function findWorkstreamForArchive(ex: Executor, workstreamId: string): Promise<WorkstreamRow | null> {
  const [row] = await ex.select().from(workstreams).where(eq(workstreams.id, workstreamId));
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
  return db.transaction(async (tx) => {
    const [segment] = await tx.select({ uploadedAt: archiveSegments.uploadedAt }).from(archiveSegments).where(eq(archiveSegments.key, claim.key)).for('update');
    if (!segment) return 'gone';
    if (!segment.uploadedAt) {
      await tx
        .update(archiveSegments)
        .set({ uploadedAt: stored.at, sha256: stored.sha256, bytes: stored.bytes, lastError: null })
        .where(eq(archiveSegments.key, claim.key));
    }
    await tx
      .update(workstreamEvents)
      .set({ payload: null })
      .where(
        and(
          eq(workstreamEvents.workstreamId, claim.workstreamId),
          between(workstreamEvents.sequence, claim.firstSequence, claim.lastSequence),
          eq(workstreamEvents.segmentKey, claim.key),
        ),
      );
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
  const [row] = await ex
    .select({ uploadedAt: archiveSegments.uploadedAt, attempts: archiveSegments.attempts })
    .from(archiveSegments)
    .where(eq(archiveSegments.key, key));
  if (!row) return { state: 'missing', attempts: 0 };
  return { state: row.uploadedAt ? 'stored' : 'pending', attempts: row.attempts };
}

// ——— deletion ———

export interface DeletedWorkstreams {
  workstreams: number;
  events: number;
  /** Segment objects of those workstreams (stored or still being stored). */
  segments: number;
  /** Objects queued for deletion (segments and manifests). */
  objectKeys: string[];
}

/**
 * Deletes workstreams' ledger rows and queues their objects for deletion, in the
 * caller's transaction, so a crash between the database and the store cannot leave
 * objects nobody will delete.
 */
async function deleteWorkstreamSet(tx: Executor, set: { id: string; orgId: string }[], now: Date): Promise<DeletedWorkstreams> {
  if (set.length === 0) return { workstreams: 0, events: 0, segments: 0, objectKeys: [] };
  const ids = set.map((ws) => ws.id);
  const segments = await tx.select({ key: archiveSegments.key }).from(archiveSegments).where(inArray(archiveSegments.workstreamId, ids));
  const objectKeys = [...segments.map((segment) => segment.key), ...set.map((ws) => workstreamManifestKey(ws.orgId, ws.id))];
  const orgOf = new Map(set.map((ws) => [ws.id, ws.orgId]));
  const orgOfKey = (key: string) => orgOf.get(/\/workstreams\/([^/]+)\//.exec(key)?.[1] ?? '') ?? set[0]!.orgId;
  await tx
    .insert(archiveDeletions)
    .values(objectKeys.map((key) => ({ key, orgId: orgOfKey(key), requestedAt: now, nextAttemptAt: now })))
    .onDuplicateKeyUpdate({ set: { nextAttemptAt: now } });
  await tx.delete(archiveSegments).where(inArray(archiveSegments.workstreamId, ids));
  const [events] = await tx.delete(workstreamEvents).where(inArray(workstreamEvents.workstreamId, ids));
  await tx.delete(workstreams).where(inArray(workstreams.id, ids));
  return { workstreams: set.length, events: events.affectedRows, segments: segments.length, objectKeys };
}

/** Deletes one workstream the scope owns (see deleteWorkstreamSet). Null when it cannot see it. */
export async function deleteWorkstreamRecords(
  db: Database,
  scope: OwnerScope,
  workstreamId: string,
  now: Date,
): Promise<DeletedWorkstreams | null> {
  return db.transaction(async (tx) => {
    const set = await tx
      .select({ id: workstreams.id, orgId: workstreams.orgId })
      .from(workstreams)
      .where(and(eq(workstreams.id, workstreamId), eq(workstreams.orgId, scope.orgId), eq(workstreams.userId, scope.userId)))
      .for('update');
    return set.length === 0 ? null : deleteWorkstreamSet(tx, set, now);
  });
}

/** Deletes every workstream of a member (purge), in the caller's transaction. */
export async function purgeMemberWorkstreams(tx: Executor, org: OrgScope, userId: string, now: Date): Promise<DeletedWorkstreams> {
  const set = await tx
    .select({ id: workstreams.id, orgId: workstreams.orgId })
    .from(workstreams)
    .where(and(eq(workstreams.orgId, org.orgId), eq(workstreams.userId, userId)))
    .for('update');
  return deleteWorkstreamSet(tx, set, now);
}

/** Deletes every workstream of an org (org deletion), in the caller's transaction. */
export async function purgeOrgWorkstreams(tx: Executor, org: OrgScope, now: Date): Promise<DeletedWorkstreams> {
  const set = await tx.select({ id: workstreams.id, orgId: workstreams.orgId }).from(workstreams).where(eq(workstreams.orgId, org.orgId)).for('update');
  return deleteWorkstreamSet(tx, set, now);
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

// ——— reading the archive back ———

/** A workstream's segments that are in object storage, in sequence order. */
export async function storedSegments(ex: Executor, workstreamId: string): Promise<SegmentClaim[]> {
  return ex
    .select(claimColumns)
    .from(archiveSegments)
    .where(and(eq(archiveSegments.workstreamId, workstreamId), isNotNull(archiveSegments.uploadedAt)))
    .orderBy(asc(archiveSegments.firstSequence));
}

/** Events whose payload is still in the ledger (not yet in a stored segment), by sequence, a page at a time. */
export async function unarchivedEvents(
  ex: Executor,
  workstreamId: string,
  range: { after: number; through: number; limit: number },
): Promise<(SegmentEvent & { payload: string })[]> {
  const rows = await ex
    .select(segmentEventColumns)
    .from(workstreamEvents)
    .where(
      and(
        eq(workstreamEvents.workstreamId, workstreamId),
        gt(workstreamEvents.sequence, range.after),
        lte(workstreamEvents.sequence, range.through),
        isNotNull(workstreamEvents.payload),
      ),
    )
    .orderBy(asc(workstreamEvents.sequence))
    .limit(range.limit);
  return rows as (SegmentEvent & { payload: string })[];
}
