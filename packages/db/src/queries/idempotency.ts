import { and, eq, lt } from 'drizzle-orm';
import type { Executor } from '../driver';
import { idempotencyKeys } from '../schema';
import type { OrgScope, OwnerScope } from '../scope';

export interface IdempotencyRecord {
  requestHash: string;
  /** Null only while the claiming transaction runs (never seen by others: it is uncommitted). */
  status: number | null;
  resultId: string | null;
  createdAt: Date;
}

const byKey = (scope: OwnerScope, keyHash: string) =>
  and(eq(idempotencyKeys.orgId, scope.orgId), eq(idempotencyKeys.userId, scope.userId), eq(idempotencyKeys.keyHash, keyHash));

/**
 * Claims a key for the caller, before the write it guards. A concurrent claim of the same
 * key waits on this row until the claiming transaction ends, then fails as a duplicate
 * (ER_DUP_ENTRY) if it committed, or succeeds if it rolled back.
 */
export async function claimIdempotencyKey(
  ex: Executor,
  scope: OwnerScope,
  claim: { keyHash: string; requestHash: string; createdAt: Date },
): Promise<void> {
  await ex.insert(idempotencyKeys).values({ ...claim, orgId: scope.orgId, userId: scope.userId });
}

/** Records the first answer of a claimed key, in the claiming transaction. */
export async function completeIdempotencyKey(
  ex: Executor,
  scope: OwnerScope,
  keyHash: string,
  result: { status: number; resultId: string },
): Promise<void> {
  await ex.update(idempotencyKeys).set(result).where(byKey(scope, keyHash));
}

export async function findIdempotencyKey(ex: Executor, scope: OwnerScope, keyHash: string): Promise<IdempotencyRecord | null> {
  const [row] = await ex
    .select({
      requestHash: idempotencyKeys.requestHash,
      status: idempotencyKeys.status,
      resultId: idempotencyKeys.resultId,
      createdAt: idempotencyKeys.createdAt,
    })
    .from(idempotencyKeys)
    .where(byKey(scope, keyHash));
  return row ?? null;
}

/** Deletes the caller's key if it was claimed before `before` (expired), so it can be claimed anew. */
export async function deleteExpiredIdempotencyKey(ex: Executor, scope: OwnerScope, keyHash: string, before: Date): Promise<void> {
  await ex.delete(idempotencyKeys).where(and(byKey(scope, keyHash), lt(idempotencyKeys.createdAt, before)));
}

/** Deletes up to `limit` of an org's keys claimed before `before`. Returns how many. */
export async function purgeExpiredIdempotencyKeys(ex: Executor, org: OrgScope, before: Date, limit: number): Promise<number> {
  const [result] = await ex
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.orgId, org.orgId), lt(idempotencyKeys.createdAt, before)))
    .limit(limit);
  return result.affectedRows;
}
