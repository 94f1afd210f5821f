import { and, eq, getTableName, inArray, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { memoryTermStats } from '../schema';
import { padded, sendStatement, type Executor } from '../driver';
import { isAscii } from './analyze';
import type { TermCounts } from './memory-terms';

/**
 * Each owner's search statistics (schema/memory-search.ts): how many memories it has,
 * how many words they hold, and in how many of them each term appears. Ranking reads
 * them instead of InnoDB's, whose IDF mixes the whole table's row count into every
 * tenant's scores.
 */

/** The key of the row holding an owner's totals. */
export const OWNER_TOTALS = '';

export interface StatsDelta {
  docs: number;
  tokens: number;
}

/** Signed changes to one owner's statistics, term → delta (OWNER_TOTALS included). */
export type OwnerStatsDelta = Map<string, StatsDelta>;

/** What saving (sign 1) or deleting (sign -1) a memory with these terms does to its owner's statistics. */
export function statsDeltaOf(counts: TermCounts, length: number, sign: 1 | -1, into: OwnerStatsDelta = new Map()): OwnerStatsDelta {
  const bump = (term: string, docs: number, tokens: number) => {
    const current = into.get(term) ?? { docs: 0, tokens: 0 };
    into.set(term, { docs: current.docs + docs, tokens: current.tokens + tokens });
  };
  bump(OWNER_TOTALS, sign, sign * length);
  for (const [term, count] of counts) bump(term, sign, sign * count);
  return into;
}

/** Statement shapes for reading statistics: a query's terms are padded up to one of these counts. */
const STATS_TERM_BATCH_SIZES = [8, 16, 32, 64, 128, 256];

/** Rows per statement: a long memory has a few thousand distinct terms. */
const STATS_ROWS_PER_STATEMENT = 2000;

const UPSERT_HEAD = `INSERT INTO \`${getTableName(memoryTermStats)}\` (org_id, owner_id, term, docs, tokens) VALUES `;
const UPSERT_TAIL = ' ON DUPLICATE KEY UPDATE docs = docs + VALUES(docs), tokens = tokens + VALUES(tokens)';

/**
 * One statistics upsert of `rows` (org, owner, term, docs, tokens): a fixed head, one
 * `(?, ?, ?, ?, ?)` per row and a fixed tail, which the driver seam sends as text; drizzle
 * builds the same statement otherwise.
 */
async function upsertStats(ex: Executor, rows: (string | number)[][]): Promise<void> {
  await sendStatement(
    ex,
    () => ({ sql: UPSERT_HEAD + Array.from({ length: rows.length }, () => '(?, ?, ?, ?, ?)').join(', ') + UPSERT_TAIL, values: rows.flat(), prepare: false }),
    (on) => {
      const values = rows.map((row) => sql`(${sql.join(row.map((value) => sql`${value}`), sql`, `)})`);
      return on.execute(sql`INSERT INTO ${memoryTermStats} (org_id, owner_id, term, docs, tokens) VALUES ${sql.join(values, sql`, `)}
        ON DUPLICATE KEY UPDATE docs = docs + VALUES(docs), tokens = tokens + VALUES(tokens)`);
    },
  );
}

/**
 * Adds a delta to an owner's statistics, in the caller's transaction: with the change of
 * memories it counts, so the two commit together. The owner's totals row goes first and
 * the terms in sorted order, so concurrent changes of one owner lock rows in the same order
 * (the totals row serialises them) and cannot deadlock each other. A term that no memory
 * holds any more leaves no row behind: its word may be all that is left of a deleted memory.
 */
export async function applyStatsDelta(ex: Executor, orgId: string, ownerId: string, delta: OwnerStatsDelta): Promise<void> {
  const terms = [...delta.keys()].filter((term) => term !== OWNER_TOTALS).sort();
  if (delta.has(OWNER_TOTALS)) terms.unshift(OWNER_TOTALS);
  for (let offset = 0; offset < terms.length; offset += STATS_ROWS_PER_STATEMENT) {
    const rows = terms.slice(offset, offset + STATS_ROWS_PER_STATEMENT).flatMap((term) => {
      const change = delta.get(term)!;
      return change.docs === 0 && change.tokens === 0 ? [] : [[orgId, ownerId, term, change.docs, change.tokens]];
    });
    if (rows.length > 0) await upsertStats(ex, rows);
  }
  const emptied = terms.filter((term) => delta.get(term)!.docs < 0);
  for (let offset = 0; offset < emptied.length; offset += STATS_ROWS_PER_STATEMENT) {
    await ex
      .delete(memoryTermStats)
      .where(
        and(
          eq(memoryTermStats.orgId, orgId),
          eq(memoryTermStats.ownerId, ownerId),
          inArray(memoryTermStats.term, emptied.slice(offset, offset + STATS_ROWS_PER_STATEMENT)),
          lte(memoryTermStats.docs, 0),
        ),
      );
  }
}

/** Forgets an owner's statistics (all of its memories are gone). */
export async function deleteOwnerStats(ex: Executor, orgId: string, ownerId: string): Promise<void> {
  await ex.execute(sql`DELETE FROM ${memoryTermStats} WHERE org_id = ${orgId} AND owner_id = ${ownerId}`);
}

export interface OwnersStats {
  /** Memories of the owners together. */
  docs: number;
  /** Words in them. */
  tokens: number;
  /** Term → memories holding it. Terms as asked (the column's collation may merge accent variants). */
  termDocs: Map<string, number>;
}

/** The placeholder of the statistics column's i-th term. */
const statsTermPlaceholder = (i: number) => `statsTerm${i}`;

/** A query's terms as the statistics column reads them: padded to a statement shape, with their parameters. */
export interface StatsTerms {
  /** Terms asked for (without padding). */
  terms: readonly string[];
  /** Term slots of the statement (ownersStatsColumn's `slots`). */
  slots: number;
  /** Values of the column's term placeholders. */
  params: Record<string, string>;
}

export function statsTermsFor(terms: readonly string[]): StatsTerms {
  // Padded (with the totals row's key) to a few sizes, so a handful of prepared statements serve every query.
  const wanted = padded([OWNER_TOTALS, ...terms], STATS_TERM_BATCH_SIZES);
  return { terms, slots: wanted.length, params: Object.fromEntries(wanted.map((term, i) => [statsTermPlaceholder(i), term])) };
}

/**
 * Some owners' statistics for a query's terms as one column of the search statement, so
 * the candidates and what ranks them come in one round trip: an uncorrelated subquery
 * (evaluated once per statement, not per row) of primary key lookups, its rows as one
 * JSON array of [term, docs, tokens] (GROUP_CONCAT, as for contexts: the session's
 * group_concat_max_len is raised at connect, far above 256 terms). Its `slots` term
 * placeholders are filled by statsTermsFor's params.
 */
export function ownersStatsColumn(orgId: SQLWrapper, ownerIds: readonly SQLWrapper[], slots: number): SQL<string | null> {
  const terms = sql.join(
    Array.from({ length: slots }, (_, i) => sql.placeholder(statsTermPlaceholder(i))),
    sql`, `,
  );
  return sql<string | null>`(SELECT CONCAT('[', GROUP_CONCAT(JSON_ARRAY(${memoryTermStats.term}, ${memoryTermStats.docs}, ${memoryTermStats.tokens})), ']') FROM ${memoryTermStats} WHERE ${memoryTermStats.orgId} = ${orgId} AND ${memoryTermStats.ownerId} IN (${sql.join([...ownerIds], sql`, `)}) AND ${memoryTermStats.term} IN (${terms}))`;
}

/** The column's value, summed over the owners. */
export function ownersStatsFrom(text: string | null, asked: StatsTerms): OwnersStats {
  const rows = text === null ? [] : (JSON.parse(text) as [string, number | string, number | string][]);
  const stats: OwnersStats = { docs: 0, tokens: 0, termDocs: new Map() };
  const byFold = new Map<string, number>();
  for (const [term, docsValue, tokens] of rows) {
    const docs = Math.max(0, Number(docsValue));
    if (term === OWNER_TOTALS) {
      stats.docs += docs;
      stats.tokens += Math.max(0, Number(tokens));
    } else byFold.set(foldTerm(term), (byFold.get(foldTerm(term)) ?? 0) + docs);
  }
  for (const term of asked.terms) stats.termDocs.set(term, byFold.get(foldTerm(term)) ?? 0);
  return stats;
}

/** Accent- and case-folded, as the tables' collation compares (café = cafe). */
export function foldTerm(term: string): string {
  return isAscii(term) ? term : term.normalize('NFD').replace(/\p{M}/gu, '');
}

/** `_`, `%` and `\` are LIKE's own: a prefix holding one is escaped. */
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The owners' word terms (`w` + word, summed over the owners) that begin with each range's
 * prefix and are of its lengths (characters): primary-key range reads of their statistics,
 * what typo correction looks for a misspelt word's nearest words among (corrections.ts).
 */
export async function ownersVocabulary(
  ex: Executor,
  orgId: string,
  ownerIds: readonly string[],
  ranges: readonly { prefix: string; minChars: number; maxChars: number }[],
): Promise<{ term: string; docs: number }[]> {
  if (ranges.length === 0) return [];
  const which = ranges.map(
    (range) => sql`(${memoryTermStats.term} LIKE ${likePrefix(range.prefix)} AND CHAR_LENGTH(${memoryTermStats.term}) BETWEEN ${range.minChars} AND ${range.maxChars})`,
  );
  const rows = await ex
    .select({ term: memoryTermStats.term, docs: sql<number | string>`SUM(${memoryTermStats.docs})` })
    .from(memoryTermStats)
    .where(and(eq(memoryTermStats.orgId, orgId), inArray(memoryTermStats.ownerId, [...ownerIds]), sql`(${sql.join(which, sql` OR `)})`))
    .groupBy(memoryTermStats.term);
  return rows.map((row) => ({ term: row.term, docs: Number(row.docs) }));
}
