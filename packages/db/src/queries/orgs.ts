import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../driver';
import { apiKeys, auditEvents, memory, memoryContext, orgs, users, type OrgRow, type Role, type UserRow } from '../schema';
import type { OrgScope } from '../scope';

/** Locks the org row for a settings change in the same transaction. */
export async function lockOrg(ex: Executor, org: OrgScope): Promise<OrgRow | null> {
  const [row] = await ex.select().from(orgs).where(eq(orgs.id, org.orgId)).for('update');
  return row ?? null;
}

/** What an admin may change of the org (PATCH /v1/org). */
export type OrgSettings = Pick<OrgRow, 'redactMemorySecrets' | 'dedupeMemories' | 'memoryRetentionDays' | 'workstreamRetentionDays'>;

export async function updateOrgSettings(ex: Executor, org: OrgScope, settings: Partial<OrgSettings>): Promise<void> {
  await ex.update(orgs).set(settings).where(eq(orgs.id, org.orgId));
}

export type NewUser = Pick<UserRow, 'id' | 'email' | 'role' | 'createdAt'> & Partial<Pick<UserRow, 'oidcIssuer' | 'oidcSubject'>>;

export async function insertUser(ex: Executor, org: OrgScope, user: NewUser): Promise<UserRow> {
  const row: UserRow = { oidcIssuer: null, oidcSubject: null, removedAt: null, ...user, orgId: org.orgId };
  await ex.insert(users).values(row);
  return row;
}

export async function findUser(ex: Executor, org: OrgScope, userId: string): Promise<UserRow | null> {
  const [row] = await ex
    .select()
    .from(users)
    .where(and(eq(users.orgId, org.orgId), eq(users.id, userId)));
  return row ?? null;
}

export async function findOrg(ex: Executor, org: OrgScope): Promise<OrgRow | null> {
  const [row] = await ex.select().from(orgs).where(eq(orgs.id, org.orgId));
  return row ?? null;
}

export type { Role };

/** The org's users (members, admins, owners), removed ones included, oldest first. */
export async function listUsers(ex: Executor, org: OrgScope): Promise<UserRow[]> {
  return ex.select().from(users).where(eq(users.orgId, org.orgId)).orderBy(asc(users.id));
}

/** Locks a user of the org for a change in the same transaction. */
export async function lockUser(ex: Executor, org: OrgScope, userId: string): Promise<UserRow | null> {
  const [row] = await ex
    .select()
    .from(users)
    .where(and(eq(users.orgId, org.orgId), eq(users.id, userId)))
    .for('update');
  return row ?? null;
}

export async function markUserRemoved(ex: Executor, org: OrgScope, userId: string, at: Date): Promise<void> {
  await ex
    .update(users)
    .set({ removedAt: at })
    .where(and(eq(users.orgId, org.orgId), eq(users.id, userId)));
}

/** Gives a user of the org another role. */
export async function setUserRole(ex: Executor, org: OrgScope, userId: string, role: Role): Promise<void> {
  await ex
    .update(users)
    .set({ role })
    .where(and(eq(users.orgId, org.orgId), eq(users.id, userId)));
}

/** Owners of the org still in it (an org keeps at least one). */
export async function countActiveOwners(ex: Executor, org: OrgScope): Promise<number> {
  const [row] = await ex
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.orgId, org.orgId), eq(users.role, 'owner'), isNull(users.removedAt)));
  return row?.n ?? 0;
}

/** Operator: deletes an org row; users, keys, memories and workstreams go with it (FK cascades). */
export async function deleteOrgRow(ex: Executor, org: OrgScope): Promise<boolean> {
  const [result] = await ex.delete(orgs).where(eq(orgs.id, org.orgId));
  return result.affectedRows > 0;
}

/** What an org holds, counted before it is deleted. */
export async function orgFootprint(ex: Executor, org: OrgScope): Promise<{ users: number; apiKeys: number; memories: number; contexts: number }> {
  const [counts] = await selectRows<{ users: number; api_keys: number; memories: number; contexts: number }>(ex, sql`
    SELECT
      (SELECT COUNT(*) FROM ${users} WHERE ${users.orgId} = ${org.orgId}) AS users,
      (SELECT COUNT(*) FROM ${apiKeys} WHERE ${apiKeys.orgId} = ${org.orgId}) AS api_keys,
      (SELECT COUNT(*) FROM ${memory} WHERE ${memory.orgId} = ${org.orgId}) AS memories,
      (SELECT COUNT(*) FROM ${memoryContext} WHERE ${memoryContext.orgId} = ${org.orgId}) AS contexts
  `);
  return { users: Number(counts?.users), apiKeys: Number(counts?.api_keys), memories: Number(counts?.memories), contexts: Number(counts?.contexts) };
}

/** Operator: an org's own audit trail goes with it (the record of its deletion is written after). */
export async function deleteOrgAudit(ex: Executor, org: OrgScope): Promise<void> {
  await ex.delete(auditEvents).where(eq(auditEvents.orgId, org.orgId));
}
