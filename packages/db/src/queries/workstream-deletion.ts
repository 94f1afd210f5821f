import { and, eq, inArray } from 'drizzle-orm';
import type { Database, Executor } from '../driver';
import { inTransaction } from '../driver';
import { workstreamManifestKey } from '../archive-layout';
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
