import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { apiKeys, users, type ApiKeyRow, type ApiKeyScope, type Role } from '../schema';
import { preparedOn } from '../prepared';
import type { OwnerScope } from '../scope';

export type ApiKeyRecord = Omit<ApiKeyRow, 'keyHash' | 'orgId' | 'userId'>;

/** What a valid key says about its bearer. */
export interface KeyHolder {
  keyId: string;
  orgId: string;
  userId: string;
  role: Role;
  scopes: ApiKeyScope[];
  /** The key's recall budget in characters; null: the default. */
  recallBudgetChars: number | null;
  lastUsedAt: Date | null;
}

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

/** Stores a key for `scope`'s user. Only the hash of the secret is ever stored. */
export async function insertApiKey(
  ex: Executor,
  scope: Pick<OwnerScope, 'orgId' | 'userId'>,
  key: Omit<ApiKeyRow, 'orgId' | 'userId' | 'lastUsedAt' | 'revokedAt'>,
): Promise<ApiKeyRecord> {
  await ex.insert(apiKeys).values({ ...key, orgId: scope.orgId, userId: scope.userId });
  const { keyHash: _hash, ...record } = key;
  return { ...record, lastUsedAt: null, revokedAt: null };
}

/**
 * The one lookup that is not owner-scoped, because it is what establishes the owner:
 * a live key by the SHA-256 of its secret, with its user's org and role.
 */
export async function findKeyHolder(ex: Executor, keyHash: string): Promise<KeyHolder | null> {
  const query = preparedOn(ex, 'findKeyHolder', (on) =>
    on
      .select({
        keyId: apiKeys.id,
        orgId: users.orgId,
        userId: users.id,
        role: users.role,
        scopes: apiKeys.scopes,
        recallBudgetChars: apiKeys.recallBudgetChars,
        lastUsedAt: apiKeys.lastUsedAt,
      })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt), isNull(users.removedAt))),
  );
  const [row] = await query.execute({ hash: keyHash });
  return row ?? null;
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
  scope: Pick<OwnerScope, 'orgId' | 'userId'>,
  keyId: string,
  at: Date,
): Promise<boolean> {
  const [result] = await ex
    .update(apiKeys)
    .set({ revokedAt: sql`COALESCE(${apiKeys.revokedAt}, ${at})` })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.orgId, scope.orgId), eq(apiKeys.userId, scope.userId)));
  return result.affectedRows > 0;
}

/** Records that a key was used (best effort; callers throttle it). */
export async function touchApiKey(ex: Executor, keyId: string, at: Date): Promise<void> {
  await ex.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, keyId));
}

/** Operator only (CLI): the owner of a key, in whatever org. */
export async function findKeyOwnerForOperator(
  ex: Executor,
  keyId: string,
): Promise<Pick<OwnerScope, 'orgId' | 'userId'> | null> {
  const [row] = await ex
    .select({ orgId: apiKeys.orgId, userId: apiKeys.userId })
    .from(apiKeys)
    .where(eq(apiKeys.id, keyId));
  return row ?? null;
}

/** Revokes every live key of a user (member removal). Returns how many. */
export async function revokeUserKeys(ex: Executor, scope: Pick<OwnerScope, 'orgId' | 'userId'>, at: Date): Promise<number> {
  const [result] = await ex
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.orgId, scope.orgId), eq(apiKeys.userId, scope.userId), isNull(apiKeys.revokedAt)));
  return result.affectedRows;
}
