import { searchMemories } from '@memory-bank/db';
import { findKeyHolder } from '@memory-bank/db/system';
import { hashApiKey } from '../../src/auth/api-key-secret';
import type mysql from 'mysql2/promise';
import type { BenchContext } from './context';

export type Statement = { sql: string; params: unknown[] };

/** The API's default key cache window (API_KEY_CACHE_MS). */
export const KEY_CACHE_MS = 1000;

/** The key lookup as the API makes it: `statement` sent at most once per key cache window. */
export function keyLookup(pool: Pick<mysql.Pool, 'query'>, statement: Statement): () => Promise<void> {
  let lookedUpAt = -Infinity;
  return async () => {
    if (performance.now() - lookedUpAt < KEY_CACHE_MS) return;
    lookedUpAt = performance.now();
    await pool.query(statement.sql, statement.params);
  };
}

/**
 * The statements the API sends for one search by the probe tenant — the key lookup, the
 * search, the contexts — captured from the very query helpers it uses. `all` is what
 * follows the key lookup (`auth`), which the API sends once per key cache window.
 */
export async function searchStatements(ctx: BenchContext, query: string): Promise<{ auth: Statement; all: Statement[]; search: Statement }> {
  const all: Statement[] = [];
  ctx.capture.capturing = all;
  try {
    const holder = await findKeyHolder(ctx.database.db, hashApiKey(ctx.probe.key));
    await searchMemories(ctx.database.db, holder!.scope, { query, limit: 20, filter: 'all' });
  } finally {
    ctx.capture.capturing = null;
  }
  const [auth, ...rest] = all;
  const search = rest.find((statement) => /MATCH\s*\(/i.test(statement.sql));
  if (!auth || !search) throw new Error(`no search statement captured for "${query}"`);
  return { auth, all: rest, search };
}
