import { searchMemories } from '@memory-bank/db';
import { findKeyHolder } from '@memory-bank/db/system';
import { hashApiKey } from '../../src/auth/api-key-secret';
import type { BenchContext } from './context';

export type Statement = { sql: string; params: unknown[] };

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
