import { and, asc, between, count, eq, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Database, Executor } from '../driver';
import { inTransaction } from '../driver';
import { claimColumns, workstreamManifestKey, type SegmentClaim } from '../archive-layout';
import { archiveDeletions, archiveSegments, workstreamEvents, workstreams } from '../schema';
import type { OrgScope, OwnerScope } from '../scope';

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
  // Every caller's set is one org's: each statement names it (docs/scaling.md#the-sharding-key).
  const orgId = set[0]!.orgId;
  const segments = await tx
    .select({ key: archiveSegments.key })
    .from(archiveSegments)
    .where(and(eq(archiveSegments.orgId, orgId), inArray(archiveSegments.workstreamId, ids)));
  const objectKeys = [...segments.map((segment) => segment.key), ...set.map((ws) => workstreamManifestKey(ws.orgId, ws.id))];
  await tx
    .insert(archiveDeletions)
    .values(objectKeys.map((key) => ({ key, orgId, requestedAt: now, nextAttemptAt: now })))
    .onDuplicateKeyUpdate({ set: { nextAttemptAt: now } });
  await tx.delete(archiveSegments).where(and(eq(archiveSegments.orgId, orgId), inArray(archiveSegments.workstreamId, ids)));
  const [events] = await tx.delete(workstreamEvents).where(and(eq(workstreamEvents.orgId, orgId), inArray(workstreamEvents.workstreamId, ids)));
  await tx.delete(workstreams).where(and(eq(workstreams.orgId, orgId), inArray(workstreams.id, ids)));
  return { workstreams: set.length, events: events.affectedRows, segments: segments.length, objectKeys };
}

/** Deletes one workstream the scope owns (see deleteWorkstreamSet). Null when it cannot see it. */
export async function deleteWorkstreamRecords(
  db: Database,
  scope: OwnerScope,
  workstreamId: string,
  now: Date,
): Promise<DeletedWorkstreams | null> {
  return inTransaction(db, async (tx) => {
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

/**
 * Up to `limit` of the org's stored segments claimed before `before` — so every event in
 * them was received before it — oldest first (index archive_segments_org_age). A segment
 * still waiting for the object store is left until it is stored.
 */
export async function segmentsPastRetention(ex: Executor, org: OrgScope, before: Date, limit: number): Promise<SegmentClaim[]> {
  return ex
    .select(claimColumns)
    .from(archiveSegments)
    .where(and(eq(archiveSegments.orgId, org.orgId), lt(archiveSegments.createdAt, before), isNotNull(archiveSegments.uploadedAt)))
    .orderBy(asc(archiveSegments.createdAt))
    .limit(limit);
}

/** How many stored segments of the org, and events in them, retention would delete now. */
export async function countSegmentsPastRetention(ex: Executor, org: OrgScope, before: Date): Promise<{ segments: number; events: number }> {
  const [row] = await ex
    .select({ segments: count(), events: sql<string | null>`SUM(${archiveSegments.lastSequence} - ${archiveSegments.firstSequence} + 1)` })
    .from(archiveSegments)
    .where(and(eq(archiveSegments.orgId, org.orgId), lt(archiveSegments.createdAt, before), isNotNull(archiveSegments.uploadedAt)));
  return { segments: row?.segments ?? 0, events: Number(row?.events ?? 0) };
}

export interface RetainedDeletion {
  segments: number;
  events: number;
  /** Workstreams deleted because retention left them no event. */
  workstreams: number;
  /** Objects queued for deletion (the segments, and the manifests of deleted workstreams). */
  objectKeys: string[];
}

/**
 * Deletes stored segments of one org that retention no longer keeps, in the caller's
 * transaction: their events leave the ledger (rows and FULLTEXT entries), the segment rows
 * go, and their objects are queued for deletion together, as for a deleted workstream. The
 * workstreams are locked first (the lock ingestion and sealing take). A workstream left
 * without events, with nothing pending and no event since `before`, is deleted too, its
 * manifest queued: what is left of a session after retention is its newer events only.
 */
export async function deleteRetainedSegments(tx: Executor, org: OrgScope, keys: readonly string[], before: Date, now: Date): Promise<RetainedDeletion> {
  const none: RetainedDeletion = { segments: 0, events: 0, workstreams: 0, objectKeys: [] };
  if (keys.length === 0) return none;
  const candidates = await tx
    .select({ workstreamId: archiveSegments.workstreamId })
    .from(archiveSegments)
    .where(and(eq(archiveSegments.orgId, org.orgId), inArray(archiveSegments.key, [...keys])));
  const workstreamIds = [...new Set(candidates.map((row) => row.workstreamId))].sort();
  if (workstreamIds.length === 0) return none;
  const locked = await tx
    .select({ id: workstreams.id, lastEventAt: workstreams.lastEventAt, pendingCount: workstreams.pendingCount })
    .from(workstreams)
    .where(and(eq(workstreams.orgId, org.orgId), inArray(workstreams.id, workstreamIds)))
    .orderBy(asc(workstreams.id))
    .for('update');
  // Under the locks: the segments still there, stored and old enough.
  const segments = await tx
    .select(claimColumns)
    .from(archiveSegments)
    .where(and(eq(archiveSegments.orgId, org.orgId), inArray(archiveSegments.key, [...keys]), lt(archiveSegments.createdAt, before), isNotNull(archiveSegments.uploadedAt)))
    .for('update');
  if (segments.length === 0) return none;
  const segmentKeys = segments.map((segment) => segment.key);
  const [events] = await tx
    .delete(workstreamEvents)
    .where(
      and(
        eq(workstreamEvents.orgId, org.orgId),
        or(...segments.map((segment) => and(eq(workstreamEvents.workstreamId, segment.workstreamId), between(workstreamEvents.sequence, segment.firstSequence, segment.lastSequence)))),
      ),
    );
  await tx.delete(archiveSegments).where(and(eq(archiveSegments.orgId, org.orgId), inArray(archiveSegments.key, segmentKeys)));
  const touched = new Set(segments.map((segment) => segment.workstreamId));
  const withEvents = await tx
    .selectDistinct({ workstreamId: workstreamEvents.workstreamId })
    .from(workstreamEvents)
    .where(and(eq(workstreamEvents.orgId, org.orgId), inArray(workstreamEvents.workstreamId, [...touched])));
  const alive = new Set(withEvents.map((row) => row.workstreamId));
  const emptied = locked.filter((ws) => touched.has(ws.id) && !alive.has(ws.id) && ws.pendingCount === 0 && ws.lastEventAt < before).map((ws) => ws.id);
  const objectKeys = [...segmentKeys, ...emptied.map((id) => workstreamManifestKey(org.orgId, id))];
  await tx
    .insert(archiveDeletions)
    .values(objectKeys.map((key) => ({ key, orgId: org.orgId, requestedAt: now, nextAttemptAt: now })))
    .onDuplicateKeyUpdate({ set: { nextAttemptAt: now } });
  if (emptied.length > 0) await tx.delete(workstreams).where(and(eq(workstreams.orgId, org.orgId), inArray(workstreams.id, emptied)));
  return { segments: segments.length, events: events.affectedRows, workstreams: emptied.length, objectKeys };
}
