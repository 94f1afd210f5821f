import { and, asc, count, eq, inArray, isNotNull, lt, lte } from 'drizzle-orm';
import type { Executor } from '../driver';
import { memory, type MemoryScope } from '../schema';
import { lockOwnerSaves } from './memory';
import type { OrgScope } from '../scope';

/*
 * What the maintenance loop deletes of one org's memories: expired ones, and those its
 * retention setting no longer keeps. Each helper names the org (the loop finds due orgs
 * through @memory-bank/db/system, then works one org at a time).
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** When retention of `days` days stops keeping things: whatever is older than this is due. */
export function retentionCutoff(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

/** A memory due for deletion, with what says whose statistics it counts in. */
export interface DueMemory {
  id: string;
  orgId: string;
  userId: string;
  scope: MemoryScope;
}

/** Why a memory is due: it expired, or it was not updated since a time and is not pinned. */
export type MemoryDue = { expiredBy: Date } | { notUpdatedSince: Date };

function dueCondition(due: MemoryDue) {
  return 'expiredBy' in due
    ? and(isNotNull(memory.expiresAt), lte(memory.expiresAt, due.expiredBy))
    : and(lt(memory.updatedAt, due.notUpdatedSince), eq(memory.pinned, false));
}

const dueColumns = { id: memory.id, orgId: memory.orgId, userId: memory.userId, scope: memory.scope };

/** Up to `limit` of the org's memories due, least recently updated first (index memory_org_updated). */
export async function dueMemories(ex: Executor, org: OrgScope, due: MemoryDue, limit: number): Promise<DueMemory[]> {
  return ex
    .select(dueColumns)
    .from(memory)
    .where(and(eq(memory.orgId, org.orgId), dueCondition(due)))
    .orderBy(asc(memory.updatedAt))
    .limit(limit);
}

/** How many of the org's memories are due (doctor, metrics, the org's settings). */
export async function countDueMemories(ex: Executor, org: OrgScope, due: MemoryDue): Promise<number> {
  const [row] = await ex
    .select({ n: count() })
    .from(memory)
    .where(and(eq(memory.orgId, org.orgId), dueCondition(due)));
  return row?.n ?? 0;
}

/**
 * Of these memories of one owner, those still due, locked for their deletion in the same
 * transaction (a change since they were found — an update, a pin — keeps a memory). The
 * owner's statistics totals row is locked first, the order every save takes (totals, then
 * memories), so a deletion and a save of one owner queue instead of deadlocking.
 */
export async function lockDueMemories(ex: Executor, org: OrgScope, owner: { ownerId: string; ids: readonly string[] }, due: MemoryDue): Promise<string[]> {
  if (owner.ids.length === 0) return [];
  await lockOwnerSaves(ex, org, owner.ownerId);
  const rows = await ex
    .select({ id: memory.id })
    .from(memory)
    .where(and(eq(memory.orgId, org.orgId), inArray(memory.id, [...owner.ids]), dueCondition(due)))
    .orderBy(asc(memory.id))
    .for('update');
  return rows.map((row) => row.id);
}
