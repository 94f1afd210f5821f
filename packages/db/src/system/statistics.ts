import { and, asc, count, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { inTransaction, selectRows, type Database, type Executor } from '../driver';
import { memory, memoryTermStats } from '../schema';
import { SEARCH_TERMS_VERSION, memorySearchTerms } from '../search/memory-terms';
import { OWNER_TOTALS, applyStatsDelta, deleteOwnerStats, statsDeltaOf, type OwnerStatsDelta } from '../search/stats';

/**
 * Each owner's search statistics checked against, and recounted from, its memories: the
 * statistics change in the same transaction as the memories they count, so they drift only
 * through something outside the service (a restored backup of one table, a hand edit).
 */

/** Whose statistics: a user (private memories) or the org (shared ones), within the org. */
export interface StatisticsOwner {
  orgId: string;
  ownerId: string;
}

/** The owner column of a memory's statistics: its user, or its org when shared. */
const OWNER_OF_MEMORY = sql<string>`CASE WHEN ${memory.scope} = 'org' THEN ${memory.orgId} ELSE ${memory.userId} END`;

/** Every owner with memories or statistics, of one org or owner when given, in a stable order. */
export async function statisticsOwners(ex: Executor, only: { orgId?: string; ownerId?: string } = {}): Promise<StatisticsOwner[]> {
  const inOrg = (column: typeof memory.orgId | typeof memoryTermStats.orgId) => (only.orgId ? sql` AND ${column} = ${only.orgId}` : sql``);
  const rows = await selectRows<{ org_id: string; owner_id: string }>(
    ex,
    sql`SELECT DISTINCT org_id, owner_id FROM (
      SELECT ${memory.orgId} AS org_id, ${OWNER_OF_MEMORY} AS owner_id FROM ${memory} WHERE 1 = 1${inOrg(memory.orgId)}
      UNION SELECT ${memoryTermStats.orgId}, ${memoryTermStats.ownerId} FROM ${memoryTermStats} WHERE 1 = 1${inOrg(memoryTermStats.orgId)}
    ) AS owners ORDER BY org_id, owner_id`,
  );
  return rows.map((row) => ({ orgId: row.org_id, ownerId: row.owner_id })).filter((owner) => only.ownerId === undefined || owner.ownerId === only.ownerId);
}

export interface StatisticsDrift {
  /** Owners whose counted memories differ from the memories they hold (at most `limit` named). */
  owners: (StatisticsOwner & { counted: number; held: number })[];
  /** All such owners. */
  ownersDrifted: number;
  /** Rows of terms no memory holds (none are left behind by the service). */
  emptiedRows: number;
}

/**
 * A check of every owner that costs one pass over the memories: its totals row against
 * the memories it holds in the current search format. A term's count can still be off
 * with the totals right; `recountOwnerStatistics` settles everything.
 */
export async function statisticsDrift(ex: Executor, limit = 20): Promise<StatisticsDrift> {
  const held = await selectRows<{ org_id: string; owner_id: string; n: number | string }>(
    ex,
    sql`SELECT ${memory.orgId} AS org_id, ${OWNER_OF_MEMORY} AS owner_id, COUNT(*) AS n FROM ${memory} WHERE ${memory.searchVersion} = ${SEARCH_TERMS_VERSION} GROUP BY 1, 2`,
  );
  const counted = await ex
    .select({ orgId: memoryTermStats.orgId, ownerId: memoryTermStats.ownerId, docs: memoryTermStats.docs })
    .from(memoryTermStats)
    .where(eq(memoryTermStats.term, OWNER_TOTALS));
  const key = (orgId: string, ownerId: string) => `${orgId}\u0000${ownerId}`;
  const byOwner = new Map<string, StatisticsOwner & { counted: number; held: number }>();
  for (const row of held) byOwner.set(key(row.org_id, row.owner_id), { orgId: row.org_id, ownerId: row.owner_id, counted: 0, held: Number(row.n) });
  for (const row of counted) {
    const entry = byOwner.get(key(row.orgId, row.ownerId)) ?? { orgId: row.orgId, ownerId: row.ownerId, counted: 0, held: 0 };
    byOwner.set(key(row.orgId, row.ownerId), { ...entry, counted: row.docs });
  }
  const drifted = [...byOwner.values()].filter((owner) => owner.counted !== owner.held);
  const [emptied] = await ex.select({ n: count() }).from(memoryTermStats).where(lte(memoryTermStats.docs, 0));
  return { owners: drifted.slice(0, limit), ownersDrifted: drifted.length, emptiedRows: emptied?.n ?? 0 };
}

/** Deletes rows of terms no memory holds (what statisticsDrift counts as emptiedRows). */
export async function deleteEmptiedStatistics(ex: Executor): Promise<number> {
  const [result] = await ex.delete(memoryTermStats).where(lte(memoryTermStats.docs, 0));
  return result.affectedRows;
}

/** Memories read per statement while recounting. */
const RECOUNT_PAGE = 1000;

export interface RecountResult {
  /** Memories counted. */
  memories: number;
  /** Statistics rows the owner has now. */
  rows: number;
  /** Rows that were added, changed or removed. */
  changed: number;
}

/**
 * Counts an owner's statistics again from its memories (those in the current search
 * format; older ones are counted when re-indexed) and writes what differs. In one
 * transaction that first locks the owner's totals row, as every save, change and delete
 * of the owner does: they wait for the recount and then apply their own change on top.
 */
export async function recountOwnerStatistics(db: Database, owner: StatisticsOwner): Promise<RecountResult> {
  return inTransaction(db, async (tx) => {
    const [inserted] = await tx.insert(memoryTermStats).ignore().values({ ...owner, term: OWNER_TOTALS, docs: 0, tokens: 0 });
    const totalsExisted = inserted.affectedRows === 0;
    await tx
      .select({ docs: memoryTermStats.docs })
      .from(memoryTermStats)
      .where(and(eq(memoryTermStats.orgId, owner.orgId), eq(memoryTermStats.ownerId, owner.ownerId), eq(memoryTermStats.term, OWNER_TOTALS)))
      .for('update');
    const owned =
      owner.ownerId === owner.orgId
        ? and(eq(memory.orgId, owner.orgId), eq(memory.scope, 'org'))
        : and(eq(memory.orgId, owner.orgId), eq(memory.userId, owner.ownerId), eq(memory.scope, 'user'));
    const expected: OwnerStatsDelta = new Map();
    let memories = 0;
    for (let after = ''; ; ) {
      const page = await tx
        .select({ id: memory.id, content: memory.content })
        .from(memory)
        .where(and(owned, eq(memory.searchVersion, SEARCH_TERMS_VERSION), gt(memory.id, after)))
        .orderBy(asc(memory.id))
        .limit(RECOUNT_PAGE);
      for (const row of page) {
        const terms = memorySearchTerms('', row.content);
        statsDeltaOf(terms.counts, terms.length, 1, expected);
      }
      memories += page.length;
      if (page.length < RECOUNT_PAGE) break;
      after = page.at(-1)!.id;
    }
    const stored = await tx
      .select({ term: memoryTermStats.term, docs: memoryTermStats.docs, tokens: memoryTermStats.tokens })
      .from(memoryTermStats)
      .where(and(eq(memoryTermStats.orgId, owner.orgId), eq(memoryTermStats.ownerId, owner.ownerId)));
    if (memories === 0) {
      await deleteOwnerStats(tx, owner.orgId, owner.ownerId);
      // Every row it had goes (the totals row made above was not one of them).
      return { memories, rows: 0, changed: stored.length - (totalsExisted ? 0 : 1) };
    }
    // Rows of terms no memory holds go; the others are corrected to what the memories hold.
    const gone = stored.filter((row) => !expected.has(row.term)).map((row) => row.term);
    for (let offset = 0; offset < gone.length; offset += RECOUNT_PAGE) {
      await tx
        .delete(memoryTermStats)
        .where(and(eq(memoryTermStats.orgId, owner.orgId), eq(memoryTermStats.ownerId, owner.ownerId), inArray(memoryTermStats.term, gone.slice(offset, offset + RECOUNT_PAGE))));
    }
    const storedByTerm = new Map(stored.map((row) => [row.term, row]));
    const correction: OwnerStatsDelta = new Map();
    for (const [term, want] of expected) {
      const row = storedByTerm.get(term) ?? { docs: 0, tokens: 0 };
      if (want.docs !== row.docs || want.tokens !== row.tokens) correction.set(term, { docs: want.docs - row.docs, tokens: want.tokens - row.tokens });
    }
    await applyStatsDelta(tx, owner.orgId, owner.ownerId, correction);
    return { memories, rows: expected.size, changed: gone.length + correction.size };
  });
}
