import { sequential, type Measurement } from '../load';
import { ratio, type BenchContext, type Ratio } from './context';
import { searchStatements, type Statement } from './statements';

export interface IsolationPhase {
  rows: number;
  api: Measurement;
  /** Phrases, prefixes and questions (ctx.typedQueries): the re-ranking's other paths. */
  apiTyped: Measurement;
  prefixed: Measurement;
  naive: Measurement;
}

/**
 * Scenario 2, one phase: search latency of the probe tenant (sequential, so no queueing)
 * through the API, and the two plans straight on the database — the API's own search
 * statement (owner-prefixed terms) and the naive one (MATCH on content, filtered by owner
 * afterwards), written here because only the benchmark uses it.
 */
export async function measureIsolation(ctx: BenchContext, label: string): Promise<IsolationPhase> {
  const pool = ctx.database.pool;
  const [[{ rows }]] = (await pool.query('SELECT COUNT(*) AS `rows` FROM memory')) as unknown as [[{ rows: number }]];
  const queries = ctx.queries;
  const headers = { authorization: `Bearer ${ctx.probe.key}` };
  // Warm-up: the first queries of a phase pay for loading index pages.
  for (const q of queries.slice(0, 20)) await fetch(`${ctx.service.url}/v1/memory/search?q=${encodeURIComponent(q)}&limit=20`, { headers });

  const searching = (list: readonly string[]) => async (i: number) => {
    const res = await fetch(`${ctx.service.url}/v1/memory/search?q=${encodeURIComponent(list[i % list.length]!)}&limit=20`, { headers });
    await res.arrayBuffer();
    return res.ok;
  };
  const api = await sequential(`search via API, ${label}`, ctx.scale.sequential, searching(queries));
  const apiTyped = await sequential(`search via API, phrases/prefixes/questions, ${label}`, ctx.scale.sequential, searching(ctx.typedQueries));
  const plans: Statement[] = [];
  for (const query of queries) plans.push((await searchStatements(ctx, query)).search);
  const prefixed = await sequential(`owner-prefixed plan (SQL), ${label}`, ctx.scale.sequential, async (i) => {
    const statement = plans[i % plans.length]!;
    await pool.query(statement.sql, statement.params);
    return true;
  });
  const naive = await sequential(`naive plan (SQL), ${label}`, ctx.scale.sequential, async (i) => {
    const q = queries[i % queries.length]!;
    await pool.query(
      `SELECT id, MATCH(content) AGAINST(? IN NATURAL LANGUAGE MODE) AS score FROM memory
       WHERE MATCH(content) AGAINST(? IN NATURAL LANGUAGE MODE) AND org_id = ? AND user_id = ?
       ORDER BY score DESC, id DESC LIMIT 20`,
      [q, q, ctx.probe.orgId, ctx.probe.userId],
    );
    return true;
  });
  return { rows: Number(rows), api, apiTyped, prefixed, naive };
}

/** Scenario 2's figures: how much slower the probe's searches got once the table filled up. */
export function isolationRatios(alone: IsolationPhase, crowded: IsolationPhase, scaleName: string): Ratio[] {
  const gated = scaleName === 'medium' || scaleName === 'large';
  const target = gated ? '≤ 1.5' : '≤ 1.5 (judged at medium and large)';
  const api = crowded.api.p50 / alone.api.p50;
  const typed = crowded.apiTyped.p50 / alone.apiTyped.p50;
  const prefixed = crowded.prefixed.p50 / alone.prefixed.p50;
  const naive = crowded.naive.p50 / alone.naive.p50;
  return [
    ratio(`API search p50, ${crowded.rows} rows ÷ ${alone.rows} rows`, api, target, api <= 1.5),
    ratio('API search p50, phrases/prefixes/questions, crowded ÷ alone', typed, target, typed <= 1.5),
    ratio('owner-prefixed plan p50, crowded ÷ alone', prefixed, target, prefixed <= 1.5),
    ratio('API search p50 ÷ its own search statement p50, crowded (HTTP, auth, re-ranking, highlights)', crowded.api.p50 / crowded.prefixed.p50, '—', true),
    ratio('naive plan p50, crowded ÷ alone (for comparison)', naive, 'none (the problem we avoid)', true),
  ];
}
