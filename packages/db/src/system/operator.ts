import { eq } from 'drizzle-orm';
import type { Executor } from '../driver';
import { apiKeys, orgs, users, type OrgRow, type UserRow } from '../schema';
import { ownerScopeOf, type OwnerScope } from '../scope';

/**
 * What the operator (CLI and operator routes) does across tenants: create orgs and find
 * users and keys by id in whatever org. Everything a tenant can call is scoped instead.
 */

export type NewOrg = Pick<OrgRow, 'id' | 'name' | 'createdAt'> & Partial<Pick<OrgRow, 'redactMemorySecrets'>>;

export async function insertOrg(ex: Executor, org: NewOrg): Promise<OrgRow> {
  const row: OrgRow = { redactMemorySecrets: true, dedupeMemories: true, memoryRetentionDays: null, workstreamRetentionDays: null, ...org };
  await ex.insert(orgs).values(row);
  return row;
}

/** A user by id in whatever org. */
export async function findUserForOperator(ex: Executor, userId: string): Promise<UserRow | null> {
  const [row] = await ex.select().from(users).where(eq(users.id, userId));
  return row ?? null;
}

/** The owner of a key, in whatever org, as the scope its revocation runs in. */
export async function findKeyOwnerForOperator(ex: Executor, keyId: string): Promise<OwnerScope | null> {
  const [row] = await ex
    .select({ orgId: users.orgId, id: users.id, role: users.role })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.id, keyId));
  return row ? ownerScopeOf(row) : null;
}
