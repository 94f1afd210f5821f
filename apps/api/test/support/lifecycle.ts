import { recountOwnerStatistics } from '@memory-bank/db/system';
import type mysql from 'mysql2/promise';
import type { TestServer } from './server';

/*
 * What the expiry and retention tests check after a maintenance run: which tables still
 * hold a word (rows, FULLTEXT matches, search statistics), and whether an owner's
 * statistics are exactly what counting its memories again gives.
 */

/** A clock the test moves forward instead of sleeping. */
export function movableClock() {
  let ahead = 0;
  return {
    now: () => new Date(Date.now() + ahead),
    /** Moves the clock `ms` further ahead. */
    advance(ms: number) {
      ahead += ms;
    },
  };
}

export const DAY_MS = 24 * 3600 * 1000;

async function count(server: TestServer, query: string, params: unknown[]): Promise<number> {
  const [rows] = await server.database.pool.query<mysql.RowDataPacket[]>(query, params);
  return Number(rows[0]!.n);
}

/** The memory tables (and FULLTEXT indexes) that still hold `word`: [] once a memory holding it is really gone. */
export async function memoryTablesHolding(server: TestServer, word: string): Promise<string[]> {
  const like = `%${word}%`;
  const checks: [string, string, unknown[]][] = [
    ['memory', 'SELECT COUNT(*) AS n FROM memory WHERE content LIKE ? OR search_terms LIKE ?', [like, like]],
    ['memory FULLTEXT', 'SELECT COUNT(*) AS n FROM memory WHERE MATCH(content) AGAINST(? IN BOOLEAN MODE)', [word]],
    ['memory_context', 'SELECT COUNT(*) AS n FROM memory_context WHERE snippet LIKE ? OR CAST(citation AS CHAR) LIKE ?', [like, like]],
    ['memory_term_stats', 'SELECT COUNT(*) AS n FROM memory_term_stats WHERE term LIKE ?', [like]],
  ];
  const found: string[] = [];
  for (const [table, query, params] of checks) if ((await count(server, query, params)) > 0) found.push(table);
  return found;
}

/** Ledger rows that still hold `word` (content, search terms or a payload not yet archived). */
export async function ledgerRowsHolding(server: TestServer, word: string): Promise<number> {
  const like = `%${word}%`;
  return count(server, 'SELECT COUNT(*) AS n FROM workstream_events WHERE content LIKE ? OR search_terms LIKE ? OR payload LIKE ?', [like, like, like]);
}

/** Rows a recount of the owner's search statistics would change: 0 when they are exactly right. */
export async function statisticsOff(server: TestServer, orgId: string, ownerId: string): Promise<number> {
  return (await recountOwnerStatistics(server.database.db, { orgId, ownerId })).changed;
}

/** How many rows of `table` match `where`. */
export async function rowsOf(server: TestServer, table: string, where: string, params: unknown[]): Promise<number> {
  return count(server, `SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`, params);
}
