import { and, asc, count, eq, gte, isNotNull, lt, lte, or } from 'drizzle-orm';
import type { Executor } from '../driver';
import { countDueMemories, retentionCutoff } from '../queries/retention';
import { countSegmentsPastRetention } from '../queries/workstream-deletion';
import { maintenanceLeases, maintenanceRuns, memory, orgs, type MaintenanceLeaseRow, type MaintenanceRunRow, type MemoryScope } from '../schema';
import { orgScopeOf } from '../scope';

/*
 * The maintenance loop's own bookkeeping (apps/api/src/services/maintenance.ts): the lease
 * that lets one process across replicas run the jobs at a time, the record of what each run
 * removed, and the reads that find due work in every org — the loop then works one org at
 * a time through org-scoped queries.
 */

export interface LeaseHolder {
  job: string;
  /** Who holds it: one id per process (and per app in it). */
  holder: string;
}

/**
 * Takes the job's lease until `until` when it is free — no row, or a row whose time ended
 * before `now` — or already this holder's. Only one of several processes trying at once
 * wins: the conditional UPDATE locks the row, the INSERT of a missing row is unique.
 */
export async function takeMaintenanceLease(ex: Executor, lease: LeaseHolder, now: Date, until: Date): Promise<boolean> {
  const [updated] = await ex
    .update(maintenanceLeases)
    .set({ holder: lease.holder, leasedUntil: until })
    .where(and(eq(maintenanceLeases.job, lease.job), or(lt(maintenanceLeases.leasedUntil, now), eq(maintenanceLeases.holder, lease.holder))));
  if (updated.affectedRows > 0) return true;
  const [inserted] = await ex.insert(maintenanceLeases).ignore().values({ job: lease.job, holder: lease.holder, leasedUntil: until });
  return inserted.affectedRows > 0;
}

/** Moves this holder's lease on to `until`; false when it is no longer this holder's (it lapsed and another took it). */
export async function renewMaintenanceLease(ex: Executor, lease: LeaseHolder, until: Date): Promise<boolean> {
  const [updated] = await ex
    .update(maintenanceLeases)
    .set({ leasedUntil: until })
    .where(and(eq(maintenanceLeases.job, lease.job), eq(maintenanceLeases.holder, lease.holder)));
  return updated.affectedRows > 0;
}

/** Gives the lease up (the run is over): the next process to try takes it, whatever its clock says. */
export async function releaseMaintenanceLease(ex: Executor, lease: LeaseHolder): Promise<void> {
  await ex.delete(maintenanceLeases).where(and(eq(maintenanceLeases.job, lease.job), eq(maintenanceLeases.holder, lease.holder)));
}

/** The leases held now (doctor). */
export async function maintenanceLeasesHeld(ex: Executor): Promise<MaintenanceLeaseRow[]> {
  return ex.select().from(maintenanceLeases).orderBy(asc(maintenanceLeases.job));
}

export async function recordMaintenanceRun(ex: Executor, run: MaintenanceRunRow): Promise<void> {
  await ex.insert(maintenanceRuns).values(run);
}

/** Runs that finished at or after `since`, oldest first (doctor). */
export async function maintenanceRunsSince(ex: Executor, since: Date): Promise<MaintenanceRunRow[]> {
  return ex.select().from(maintenanceRuns).where(gte(maintenanceRuns.finishedAt, since)).orderBy(asc(maintenanceRuns.finishedAt));
}

/** Forgets runs that finished before `before`. */
export async function deleteMaintenanceRunsBefore(ex: Executor, before: Date): Promise<number> {
  const [result] = await ex.delete(maintenanceRuns).where(lt(maintenanceRuns.finishedAt, before));
  return result.affectedRows;
}

/** An expired memory, with its org and whose statistics it counts in. */
export interface ExpiredMemory {
  id: string;
  orgId: string;
  userId: string;
  scope: MemoryScope;
}

/** Up to `limit` memories of every org whose `expires_at` is at or before `now`, the earliest first (index memory_expiry). */
export async function expiredMemoriesEverywhere(ex: Executor, now: Date, limit: number): Promise<ExpiredMemory[]> {
  return ex
    .select({ id: memory.id, orgId: memory.orgId, userId: memory.userId, scope: memory.scope })
    .from(memory)
    .where(and(isNotNull(memory.expiresAt), lte(memory.expiresAt, now)))
    .orderBy(asc(memory.expiresAt))
    .limit(limit);
}

/** How many memories of every org have expired by `now` (doctor, metrics). */
export async function countExpiredMemoriesEverywhere(ex: Executor, now: Date): Promise<number> {
  const [row] = await ex
    .select({ n: count() })
    .from(memory)
    .where(and(isNotNull(memory.expiresAt), lte(memory.expiresAt, now)));
  return row?.n ?? 0;
}

export interface OrgRetention {
  orgId: string;
  memoryRetentionDays: number | null;
  workstreamRetentionDays: number | null;
}

/** The orgs with a retention setting (few: every other org keeps everything). */
export async function orgsWithRetention(ex: Executor): Promise<OrgRetention[]> {
  return ex
    .select({ orgId: orgs.id, memoryRetentionDays: orgs.memoryRetentionDays, workstreamRetentionDays: orgs.workstreamRetentionDays })
    .from(orgs)
    .where(or(isNotNull(orgs.memoryRetentionDays), isNotNull(orgs.workstreamRetentionDays)))
    .orderBy(asc(orgs.id));
}

/** What the lifecycle jobs would delete at `now`, in every org (counts only). */
export interface LifecycleDue {
  /** Memories past their `expires_at`. */
  expiredMemories: number;
  /** Unpinned memories older than their org's `memory_retention_days`. */
  retentionMemories: number;
  /** Stored segments, and the events in them, older than their org's `workstream_retention_days`. */
  retentionSegments: number;
  retentionEvents: number;
}

/**
 * What is due at `now` (doctor, the /metrics gauge): one count over the expiry index, and
 * per org with a retention setting, counts by its own scope.
 */
export async function lifecycleDue(ex: Executor, now: Date): Promise<LifecycleDue> {
  const due: LifecycleDue = { expiredMemories: await countExpiredMemoriesEverywhere(ex, now), retentionMemories: 0, retentionSegments: 0, retentionEvents: 0 };
  for (const org of await orgsWithRetention(ex)) {
    const scope = orgScopeOf({ id: org.orgId });
    if (org.memoryRetentionDays !== null) {
      due.retentionMemories += await countDueMemories(ex, scope, { notUpdatedSince: retentionCutoff(now, org.memoryRetentionDays) });
    }
    if (org.workstreamRetentionDays !== null) {
      const segments = await countSegmentsPastRetention(ex, scope, retentionCutoff(now, org.workstreamRetentionDays));
      due.retentionSegments += segments.segments;
      due.retentionEvents += segments.events;
    }
  }
  return due;
}
