import { and, asc, count, eq, gt, ne } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/mysql2';
import type mysql from 'mysql2/promise';
import * as schema from '../schema';
import { memory } from '../schema';
import { SEARCH_TERMS_VERSION, memorySearchTerms } from './memory-terms';
import { applyStatsDelta, statsDeltaOf, type OwnerStatsDelta } from './stats';
import { searchTag } from './terms';

/**
 * Brings memories written in an older search_terms format (search_version below
 * SEARCH_TERMS_VERSION) to the current one, and counts them in their owners' statistics.
 * Runs in short transactions of `batchSize` rows walked in primary-key order, so the
 * table is never locked for long and saves go on meanwhile; until a row's turn comes it
 * is still found by its exact words (the word family kept the old tag). Several
 * processes may start it: a named lock lets one work and the others return at once.
 */

const LOCK_NAME = 'memory_bank_search_reindex';

export interface ReindexProgress {
  done: number;
  /** Rows to re-index when the run started. */
  total: number;
}

export async function reindexMemorySearch(
  pool: mysql.Pool,
  options: { batchSize?: number; onProgress?: (progress: ReindexProgress) => void } = {},
): Promise<ReindexProgress> {
  const batchSize = options.batchSize ?? 200;
  const connection = await pool.getConnection();
  try {
    const [locked] = await connection.query<mysql.RowDataPacket[]>('SELECT GET_LOCK(?, 0) AS got', [LOCK_NAME]);
    if (locked[0]?.got !== 1) return { done: 0, total: 0 };
    try {
      const db = drizzle(connection, { schema, mode: 'default' });
      const stale = ne(memory.searchVersion, SEARCH_TERMS_VERSION);
      const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(memory).where(stale);
      const progress = { done: 0, total };
      if (total === 0) return progress;
      options.onProgress?.({ ...progress });
      for (let after = ''; ; ) {
        const moved = await db.transaction(async (tx) => {
          const rows = await tx
            .select({ id: memory.id, orgId: memory.orgId, userId: memory.userId, scope: memory.scope, content: memory.content })
            .from(memory)
            .where(and(gt(memory.id, after), stale))
            .orderBy(asc(memory.id))
            .limit(batchSize)
            .for('update');
          const deltas = new Map<string, { orgId: string; ownerId: string; delta: OwnerStatsDelta }>();
          for (const row of rows) {
            const shared = row.scope === 'org';
            const terms = memorySearchTerms(shared ? searchTag('o', row.orgId) : searchTag('u', row.userId), row.content);
            await tx.update(memory).set({ searchTerms: terms.searchTerms, searchVersion: SEARCH_TERMS_VERSION }).where(eq(memory.id, row.id));
            const ownerId = shared ? row.orgId : row.userId;
            const owner = deltas.get(`${row.orgId}/${ownerId}`) ?? { orgId: row.orgId, ownerId, delta: new Map() };
            statsDeltaOf(terms.counts, terms.length, 1, owner.delta);
            deltas.set(`${row.orgId}/${ownerId}`, owner);
          }
          for (const { orgId, ownerId, delta } of deltas.values()) await applyStatsDelta(tx, orgId, ownerId, delta);
          return rows;
        });
        if (moved.length === 0) return progress;
        after = moved.at(-1)!.id;
        progress.done += moved.length;
        options.onProgress?.({ ...progress });
      }
    } finally {
      await connection.query('SELECT RELEASE_LOCK(?)', [LOCK_NAME]);
    }
  } finally {
    connection.release();
  }
}
