import { lt, min } from 'drizzle-orm';
import type { Executor } from '../driver';
import { purgeExpiredIdempotencyKeys } from '../queries/idempotency';
import { idempotencyKeys } from '../schema';
import { orgScopeOf } from '../scope';

/**
 * Deletes Idempotency-Keys claimed before `before`, in every org: up to `batch` of each of
 * up to `orgs` orgs holding expired keys (the oldest first). Returns how many it deleted;
 * call again while it deletes a full batch. Each org's keys go through its own scoped
 * delete (the (org_id, created_at) index serves both statements).
 */
export async function purgeExpiredIdempotencyKeysEverywhere(
  ex: Executor,
  before: Date,
  limits: { orgs: number; batch: number },
): Promise<{ deleted: number; full: boolean }> {
  const oldest = min(idempotencyKeys.createdAt);
  const expired = await ex
    .select({ orgId: idempotencyKeys.orgId })
    .from(idempotencyKeys)
    .groupBy(idempotencyKeys.orgId)
    .having(lt(oldest, before))
    .orderBy(oldest)
    .limit(limits.orgs);
  let deleted = 0;
  let full = expired.length === limits.orgs;
  for (const { orgId } of expired) {
    const n = await purgeExpiredIdempotencyKeys(ex, orgScopeOf({ id: orgId }), before, limits.batch);
    deleted += n;
    if (n === limits.batch) full = true;
  }
  return { deleted, full };
}
