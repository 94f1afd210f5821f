import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../driver';
import { apiKeys, type ApiKeyRow } from '../schema';
import type { OrgScope, OwnerScope } from '../scope';

export type ApiKeyRecord = Omit<ApiKeyRow, 'keyHash' | 'orgId' | 'userId'>;

const publicColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  displayPrefix: apiKeys.displayPrefix,
  scopes: apiKeys.scopes,
  recallBudgetChars: apiKeys.recallBudgetChars,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
};

/** Stores a key for a user of the org. Only the hash of the secret is ever stored. */
export async function insertApiKey(
  ex: Executor,
  org: OrgScope,
  userId: string,
  key: Omit<ApiKeyRow, 'orgId' | 'userId' | 'lastUsedAt' | 'revokedAt'>,
): Promise<ApiKeyRecord> {
  await ex.insert(apiKeys).values({ ...key, orgId: org.orgId, userId });
  const { keyHash: _hash, ...record } = key;
  return { ...record, lastUsedAt: null, revokedAt: null };
}

/** The caller's own keys, newest first, revoked ones included (no secrets, no hashes). */
export async function listApiKeys(ex: Executor, scope: OwnerScope): Promise<ApiKeyRecord[]> {
  return ex
    .select(publicColumns)
    .from(apiKeys)
    .where(and(eq(apiKeys.orgId, scope.orgId), eq(apiKeys.userId, scope.userId)))
    .orderBy(desc(apiKeys.id));
}

/**
 * Revokes one of the caller's keys (revoking a revoked key changes nothing). False when
 * the key is not theirs. mysql2 connects with CLIENT_FOUND_ROWS: matched rows count.
 */
export async function revokeApiKey(
  ex: Executor,
  scope: OwnerScope,
  keyId: string,
  at: Date,
): Promise<boolean> {
  const [result] = await ex
    .update(apiKeys)
    .set({ revokedAt: sql`COALESCE(${apiKeys.revokedAt}, ${at})` })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.orgId, scope.orgId), eq(apiKeys.userId, scope.userId)));
  return result.affectedRows > 0;
}

/** Revokes every live key of a user (member removal). Returns how many. */
export async function revokeUserKeys(ex: Executor, org: OrgScope, userId: string, at: Date): Promise<number> {
  const [result] = await ex
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.orgId, org.orgId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
  return result.affectedRows;
}

/**
 * Takes the `admin` scope off every key of a user (demotion to member: a member's key never
 * carries it). Returns how many keys changed.
 */
export async function withdrawAdminScope(ex: Executor, org: OrgScope, userId: string): Promise<number> {
  const keys = await ex
    .select({ id: apiKeys.id, scopes: apiKeys.scopes })
    .from(apiKeys)
    .where(and(eq(apiKeys.orgId, org.orgId), eq(apiKeys.userId, userId)));
  let changed = 0;
  for (const key of keys.filter((row) => row.scopes.includes('admin'))) {
    await ex
      .update(apiKeys)
      .set({ scopes: key.scopes.filter((scope) => scope !== 'admin') })
      .where(and(eq(apiKeys.id, key.id), eq(apiKeys.orgId, org.orgId)));
    changed++;
  }
  return changed;
}
