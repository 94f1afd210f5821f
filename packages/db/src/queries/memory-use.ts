import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../driver';
import { memory } from '../schema';
import type { OrgScope } from '../scope';

/**
 * Counts that agents were given these memories of the org (recall, or a read over MCP):
 * `use_count` grows by each id's count and `last_used_at` moves to `at` (never back: two
 * processes may write out of order). One UPDATE, by primary key within the org; the memory's
 * `updated_at` is left alone (use is not a change). Ids the org does not hold, or no longer
 * holds, are skipped. Returns how many memories it counted.
 */
export async function recordMemoryUse(ex: Executor, org: OrgScope, uses: ReadonlyMap<string, number>, at: Date): Promise<number> {
  if (uses.size === 0) return 0;
  const ids = [...uses.keys()];
  const counts = new Set(uses.values());
  // One use each (the usual case) needs no CASE.
  const added: SQL =
    counts.size === 1 && counts.has(1)
      ? sql`${memory.useCount} + 1`
      : sql`${memory.useCount} + CASE ${memory.id} ${sql.join(
          [...uses].map(([id, count]) => sql`WHEN ${id} THEN ${count}`),
          sql` `,
        )} ELSE 0 END`;
  const [result] = await ex
    .update(memory)
    .set({ useCount: added, lastUsedAt: sql`CASE WHEN ${memory.lastUsedAt} IS NULL OR ${memory.lastUsedAt} < ${at} THEN ${at} ELSE ${memory.lastUsedAt} END` })
    .where(and(eq(memory.orgId, org.orgId), inArray(memory.id, ids)));
  return result.affectedRows;
}
