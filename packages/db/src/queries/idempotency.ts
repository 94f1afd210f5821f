import { and, eq, lt } from 'drizzle-orm';
import type { Executor } from '../client';
import { idempotencyKeys } from '../schema';
import type { OrgScope, OwnerScope } from '../scope';

type Caller = Pick<OwnerScope, 'orgId' | 'userId'>;

export interface IdempotencyRecord {
  requestHash: string;
  /** Null only while the claiming transaction runs (never seen by others: it is uncommitted). */
  status: number | null;
  resultId: string | null;
  createdAt: Date;
}

const byKey = (caller: Caller, keyHash: string) =>
  and(eq(idempotencyKeys.orgId, caller.orgId), eq(idempotencyKeys.userId, caller.userId), eq(idempotencyKeys.keyHash, keyHash));

/**
 * Claims a key for the caller, before the write it guards. A concurrent claim of the same
 * key waits on this row until the claiming transaction ends, then fails as a duplicate
 * (ER_DUP_ENTRY) if it committed, or succeeds if it rolled back.
 */
export async function claimIdempotencyKey(
  ex: Executor,
  caller: Caller,
  claim: { keyHash: string; requestHash: string; createdAt: Date },
): Promise<void> {
  await ex.insert(idempotencyKeys).values({ ...claim, orgId: caller.orgId, userId: caller.userId });
}

/** Records the first answer of a claimed key, in the claiming transaction. */
export async function completeIdempotencyKey(
  ex: Executor,
  caller: Caller,
  keyHash: string,
  result: { status: number; resultId: string },
): Promise<void> {
  await ex.update(idempotencyKeys).set(result).where(byKey(caller, keyHash));
}

export async function findIdempotencyKey(ex: Executor, caller: Caller, keyHash: string): Promise<IdempotencyRecord | null> {
  const [row] = await ex
    .select({
      requestHash: idempotencyKeys.requestHash,
      status: idempotencyKeys.status,
      resultId: idempotencyKeys.resultId,
      createdAt: idempotencyKeys.createdAt,
    })
    .from(idempotencyKeys)
    .where(byKey(caller, keyHash));
  return row ?? null;
}

/** Deletes the caller's key if it was claimed before `before` (expired), so it can be claimed anew. */
export async function deleteExpiredIdempotencyKey(ex: Executor, caller: Caller, keyHash: string, before: Date): Promise<void> {
  await ex.delete(idempotencyKeys).where(and(byKey(caller, keyHash), lt(idempotencyKeys.createdAt, before)));
}

/** Deletes up to `limit` of an org's keys claimed before `before`. Returns how many. */
export async function purgeExpiredIdempotencyKeys(ex: Executor, org: OrgScope, before: Date, limit: number): Promise<number> {
  const [result] = await ex
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.orgId, org.orgId), lt(idempotencyKeys.createdAt, before)))
    .limit(limit);
  return result.affectedRows;
}
