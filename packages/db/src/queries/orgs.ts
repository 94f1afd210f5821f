import { and, eq } from 'drizzle-orm';
import type { Executor } from '../client';
import { orgs, users, type OrgRow, type Role, type UserRow } from '../schema';
import type { OrgScope } from '../scope';

export async function insertOrg(ex: Executor, org: OrgRow): Promise<OrgRow> {
  await ex.insert(orgs).values(org);
  return org;
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

/**
 * Operator only (CLI): a user by id in whatever org. Everything a tenant can call goes
 * through `findUser`, which is org-scoped.
 */
export async function findUserForOperator(ex: Executor, userId: string): Promise<UserRow | null> {
  const [row] = await ex.select().from(users).where(eq(users.id, userId));
  return row ?? null;
}
