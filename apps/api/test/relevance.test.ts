import { newId } from '@memory-bank/db';
import { insertMemoriesBulk } from '@memory-bank/db/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMORIES, QUERIES, type Category, type LabelledQuery } from './fixtures/relevance';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';
import { expectStatus } from './support/http';

/**
 * Relevance of GET /v1/memory/search on a labelled set of our own (fixtures/relevance.ts):
 * every query ranked in one run by the default (fused: words and meaning) search, by
 * `mode=lexical` (words only) and by a plain `MATCH(content) AGAINST(? IN NATURAL LANGUAGE
 * MODE)` on the same rows; and the same results, in both modes, whether or not another
 * tenant stores 2,000 memories of its own.
 */

let server: TestServer;
let user: TestUser;
const idOf = new Map<string, string>();
let owner: { orgId: string; userId: string };

const CUTOFF = 10;
const SAVES_AT_ONCE = 8;

beforeAll(async () => {
  // The default provider, the local English model: what the semantic leg is measured with.
  server = await startTestServer({ env: { EMBEDDINGS_PROVIDER: 'local' } });
  user = (await createTenant(server.services, server.url)).owner;
  const entries = Object.entries(MEMORIES);
  for (let i = 0; i < entries.length; i += SAVES_AT_ONCE) {
    await Promise.all(
      entries.slice(i, i + SAVES_AT_ONCE).map(async ([key, content]) => {
        const res = await user.api.post('/v1/memory', { body: { content } });
        expectStatus(res, 201);
        idOf.set(key, res.body.id);
      }),
    );
  }
  // The user saved every memory: theirs is the owner whose search statistics these are.
  owner = { orgId: user.orgId, userId: user.userId };
  await embeddingsSettled();
});
afterAll(() => server.close());

/**
 * Memories are embedded asynchronously after they are saved: searching before their
 * vectors exist would measure the lexical leg alone. Waits for a condition, never a delay.
 */
async function embeddingsSettled(): Promise<void> {
  await server.embeddings.idle();
}

const keyOf = (id: string) => [...idOf.entries()].find(([, value]) => value === id)?.[0] ?? id;

/** `fused`: the default search (words and meaning); `lexical`: `mode=lexical`, the semantic leg off. */
type Mode = 'fused' | 'lexical';
const MODES: readonly Mode[] = ['fused', 'lexical'];

/** Each query's corrected_query, when it had one (reported: corrections outside the typo category are false ones). */
const correctedQueries = new Map<string, string>();

async function serviceRanking(query: string, mode: Mode): Promise<{ ids: string[]; scores: number[] }> {
  const modeParam = mode === 'lexical' ? '&mode=lexical' : '';
  const res = await user.api.get(`/v1/memory/search?q=${encodeURIComponent(query)}&limit=${CUTOFF}${modeParam}`);
  expectStatus(res, 200);
  if (res.body.corrected_query !== null) correctedQueries.set(query, res.body.corrected_query);
  const results = res.body.results;
  return { ids: results.map((r) => keyOf(r.id)), scores: results.map((r) => r.score) };
}

async function baselineRanking(query: string): Promise<string[]> {
  const [rows] = (await server.database.pool.query(
    `SELECT id FROM memory WHERE MATCH(content) AGAINST(? IN NATURAL LANGUAGE MODE) AND org_id = ? AND user_id = ?
     ORDER BY MATCH(content) AGAINST(? IN NATURAL LANGUAGE MODE) DESC, id DESC LIMIT ${CUTOFF}`,
    [query, owner.orgId, owner.userId, query],
  )) as unknown as [{ id: string }[]];
  return rows.map((row) => keyOf(row.id));
}

function recallAt5(ranking: string[], relevant: LabelledQuery['relevant']): number {
  const wanted = Object.keys(relevant);
  const found = ranking.slice(0, 5).filter((key) => key in relevant).length;
  return found / Math.min(wanted.length, 5);
}

function ndcgAt10(ranking: string[], relevant: LabelledQuery['relevant']): number {
  const gain = (grade: number) => 2 ** grade - 1;
  const dcg = ranking.slice(0, CUTOFF).reduce((sum, key, i) => sum + gain(relevant[key] ?? 0) / Math.log2(i + 2), 0);
  const ideal = Object.values(relevant)
    .sort((a, b) => b - a)
    .slice(0, CUTOFF)
    .reduce((sum, grade, i) => sum + gain(grade) / Math.log2(i + 2), 0);
  return dcg / ideal;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const round = (x: number) => (Math.round(x * 1000) / 1000).toFixed(3);

/**
 * Categories that words cannot serve, with their own recall@5 bar; every other one must
 * reach 0.95. Paraphrases are found by the embedding model alone: the local English model
 * (Universal Sentence Encoder lite, the only one that runs offline here) holds an answer in
 * its own top 5 for about a third of these queries, and the fusion keeps every one of them
 * (docs/architecture.md#relevance-measured). The bar guards that; the target of
 * 0.6 needs a stronger model (EMBEDDINGS_PROVIDER=openai), which this machine cannot reach.
 */
const RECALL_BARS: Partial<Record<Category, number>> = { paraphrase: 0.3, typo: 0.9 };
const WORD_RECALL_BAR = 0.95;
/** How far below `mode=lexical` the fused ranking may fall on a category that words serve. */
const FUSION_NDCG_SLACK = 0.02;
/** How far above plain MATCH the fused ranking must be over all queries. */
const OVERALL_NDCG_GAIN = 0.15;

interface Scores {
  recall: number;
  ndcg: number;
}
interface Measured {
  category: Category;
  q: string;
  fused: Scores & { got: string[] };
  lexical: Scores & { got: string[] };
  baseline: Scores;
}
interface CategoryRow {
  category: Category | 'all';
  queries: number;
  fused: Scores;
  lexical: Scores;
  baseline: Scores;
}

const scoresOf = (ranking: string[], relevant: LabelledQuery['relevant']): Scores => ({ recall: recallAt5(ranking, relevant), ndcg: ndcgAt10(ranking, relevant) });

function summarise(category: CategoryRow['category'], of: Measured[]): CategoryRow {
  const average = (pick: (m: Measured) => Scores): Scores => ({ recall: mean(of.map((m) => pick(m).recall)), ndcg: mean(of.map((m) => pick(m).ndcg)) });
  return { category, queries: of.length, fused: average((m) => m.fused), lexical: average((m) => m.lexical), baseline: average((m) => m.baseline) };
}

/** Every query ranked fused, lexical and by plain MATCH, once for all the checks below. */
let measuring: Promise<{ rows: Measured[]; table: CategoryRow[]; overall: CategoryRow }> | undefined;
function measured() {
  measuring ??= (async () => {
    const rows: Measured[] = [];
    for (const labelled of QUERIES) {
      const fused = await serviceRanking(labelled.q, 'fused');
      const lexical = await serviceRanking(labelled.q, 'lexical');
      const baseline = await baselineRanking(labelled.q);
      rows.push({
        category: labelled.category,
        q: labelled.q,
        fused: { ...scoresOf(fused.ids, labelled.relevant), got: fused.ids },
        lexical: { ...scoresOf(lexical.ids, labelled.relevant), got: lexical.ids },
        baseline: scoresOf(baseline, labelled.relevant),
      });
    }
    const categories = [...new Set(rows.map((row) => row.category))];
    const table = categories.map((category) => summarise(category, rows.filter((row) => row.category === category)));
    const overall = summarise('all', rows);
    const cells = (s: Scores) => `${round(s.recall)} | ${round(s.ndcg)}`;
    console.log(
      [
        '| category | queries | fused recall@5 | fused nDCG@10 | lexical recall@5 | lexical nDCG@10 | MATCH recall@5 | MATCH nDCG@10 |',
        '|---|--:|--:|--:|--:|--:|--:|--:|',
        ...[...table, overall].map((t) => `| ${t.category} | ${t.queries} | ${cells(t.fused)} | ${cells(t.lexical)} | ${cells(t.baseline)} |`),
      ].join('\n'),
    );
    const misses = rows.filter((row) => row.fused.recall < 1).map((row) => `${row.category}: ${row.q} → fused ${row.fused.got.slice(0, 5).join(', ')} · lexical ${row.lexical.got.slice(0, 5).join(', ')}`);
    if (misses.length > 0) console.log(`misses (fused top 5 · lexical top 5):\n${misses.join('\n')}`);
    const corrections = QUERIES.filter((labelled) => correctedQueries.has(labelled.q)).map((labelled) => `${labelled.category}: ${labelled.q} → ${correctedQueries.get(labelled.q)}`);
    if (corrections.length > 0) console.log(`corrected queries:\n${corrections.join('\n')}`);
    return { rows, table, overall };
  })();
  return measuring;
}

describe('relevance on the labelled set', () => {
  it('finds the answer in the top 5 for every category words serve, at least as well as plain MATCH and mode=lexical', async () => {
    const { table } = await measured();
    const failures = table
      .filter((t) => RECALL_BARS[t.category as Category] === undefined)
      .flatMap((t) => [
        ...(t.fused.recall >= WORD_RECALL_BAR ? [] : [`${t.category}: fused recall@5 ${round(t.fused.recall)} < ${WORD_RECALL_BAR}`]),
        ...(t.fused.ndcg >= t.baseline.ndcg ? [] : [`${t.category}: fused nDCG@10 ${round(t.fused.ndcg)} < plain MATCH ${round(t.baseline.ndcg)}`]),
        ...(t.fused.ndcg >= t.lexical.ndcg - FUSION_NDCG_SLACK ? [] : [`${t.category}: fused nDCG@10 ${round(t.fused.ndcg)} < mode=lexical ${round(t.lexical.ndcg)} − ${FUSION_NDCG_SLACK}`]),
      ]);
    expect(failures).toEqual([]);
  });

  it.each(Object.entries(RECALL_BARS))('finds %s queries in the top 5 (recall@5 ≥ %s)', async (category, bar) => {
    const row = (await measured()).table.find((t) => t.category === category);
    expect(row, `no ${category} query in the set`).toBeDefined();
    expect(row!.fused.recall).toBeGreaterThanOrEqual(bar!);
  });

  it(`beats plain MATCH by ${OVERALL_NDCG_GAIN} nDCG@10 over all queries`, async () => {
    const { overall } = await measured();
    expect(overall.fused.ndcg).toBeGreaterThanOrEqual(overall.baseline.ndcg + OVERALL_NDCG_GAIN);
  });

  it('gives the same results, scores included, in both modes, when another tenant stores 2,000 memories', async () => {
    const rank = (q: string) => Promise.all(MODES.map((mode) => serviceRanking(q, mode)));
    const before = new Map(await Promise.all(QUERIES.map(async (labelled) => [labelled.q, await rank(labelled.q)] as const)));
    const neighbour = await server.services.operator.provision({ name: 'Neighbour', ownerEmail: 'neighbour@relevance.example' }, 'test');
    // The neighbour writes about the same things, many times over: its words would shift
    // any table-wide statistics, and its vectors lie as near to the queries as the owner's.
    const texts = Object.values(MEMORIES);
    const now = Date.now();
    const rows = Array.from({ length: 2000 }, (_, i) => {
      const createdAt = new Date(now + i);
      // The first of them say exactly what the owner's memories say.
      const content = i < texts.length ? texts[i]! : `${texts[i % texts.length]} ${texts[(i * 13) % texts.length]}`;
      return { id: newId('memory', createdAt), orgId: neighbour.org.id, userId: neighbour.user.id, scope: 'user' as const, source: 'api' as const, content, tags: [], createdAt };
    });
    for (let i = 0; i < rows.length; i += 500) await insertMemoriesBulk(server.database.db, rows.slice(i, i + 500));
    // Their vectors are the owner's (same text, same model): as near to every query as the
    // owner's own, without embedding 2,000 memories here.
    await server.database.pool.query(
      `INSERT INTO memory_vectors (org_id, memory_id, owner_id, model, content_key, vector, embedded_at)
       SELECT theirs.org_id, theirs.id, theirs.user_id, v.model, v.content_key, v.vector, v.embedded_at
       FROM memory theirs JOIN memory own ON own.org_id = ? AND own.user_id = ? AND own.content = theirs.content
       JOIN memory_vectors v ON v.org_id = own.org_id AND v.memory_id = own.id
       WHERE theirs.org_id = ? AND theirs.user_id = ?`,
      [owner.orgId, owner.userId, neighbour.org.id, neighbour.user.id],
    );
    const [[copied]] = (await server.database.pool.query('SELECT COUNT(*) AS n FROM memory_vectors WHERE org_id = ?', [neighbour.org.id])) as unknown as [{ n: number }[]];
    expect(Number(copied!.n)).toBeGreaterThan(texts.length / 2);
    const changed = await Promise.all(
      QUERIES.map(async (labelled) => {
        const after = await rank(labelled.q);
        return MODES.filter((_, i) => JSON.stringify(after[i]) !== JSON.stringify(before.get(labelled.q)![i])).map((mode) => `${mode}: ${labelled.q}`);
      }),
    );
    expect(changed.flat()).toEqual([]);
  });
});
