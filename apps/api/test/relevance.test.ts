import { newId } from '@memory-bank/db';
import { insertMemoriesBulk } from '@memory-bank/db/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMORIES, QUERIES, type Category, type LabelledQuery } from './fixtures/relevance';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';
import { expectStatus } from './support/http';

/**
 * Relevance of GET /v1/memory/search on a labelled set of our own (fixtures/relevance.ts),
 * against a plain `MATCH(content) AGAINST(? IN NATURAL LANGUAGE MODE)` on the same rows,
 * and the same results whether or not another tenant stores 2,000 memories of its own.
 */

let server: TestServer;
let user: TestUser;
const idOf = new Map<string, string>();
let owner: { orgId: string; userId: string };

const CUTOFF = 10;
const SAVES_AT_ONCE = 8;

beforeAll(async () => {
  server = await startTestServer();
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
});
afterAll(() => server.close());

const keyOf = (id: string) => [...idOf.entries()].find(([, value]) => value === id)?.[0] ?? id;

async function serviceRanking(query: string): Promise<{ ids: string[]; scores: number[] }> {
  const res = await user.api.get(`/v1/memory/search?q=${encodeURIComponent(query)}&limit=${CUTOFF}`);
  expectStatus(res, 200);
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

describe('relevance on the labelled set', () => {
  it('finds the answer in the top 5 for every category, and beats plain MATCH', async () => {
    const rows: { category: Category; recall: number; ndcg: number; baseRecall: number; baseNdcg: number; q: string; got: string[] }[] = [];
    for (const labelled of QUERIES) {
      const ranking = await serviceRanking(labelled.q);
      const baseline = await baselineRanking(labelled.q);
      rows.push({
        category: labelled.category,
        q: labelled.q,
        got: ranking.ids,
        recall: recallAt5(ranking.ids, labelled.relevant),
        ndcg: ndcgAt10(ranking.ids, labelled.relevant),
        baseRecall: recallAt5(baseline, labelled.relevant),
        baseNdcg: ndcgAt10(baseline, labelled.relevant),
      });
    }
    const categories = [...new Set(rows.map((row) => row.category))];
    const table = categories.map((category) => {
      const of = rows.filter((row) => row.category === category);
      return {
        category,
        queries: of.length,
        recall5: mean(of.map((r) => r.recall)),
        ndcg10: mean(of.map((r) => r.ndcg)),
        baselineRecall5: mean(of.map((r) => r.baseRecall)),
        baselineNdcg10: mean(of.map((r) => r.baseNdcg)),
      };
    });
    const overall = { ndcg10: mean(rows.map((r) => r.ndcg)), baselineNdcg10: mean(rows.map((r) => r.baseNdcg)), recall5: mean(rows.map((r) => r.recall)) };
    const round = (x: number) => Math.round(x * 1000) / 1000;
    console.log(
      [
        '| category | queries | recall@5 | nDCG@10 | baseline recall@5 | baseline nDCG@10 |',
        '|---|--:|--:|--:|--:|--:|',
        ...table.map((t) => `| ${t.category} | ${t.queries} | ${round(t.recall5)} | ${round(t.ndcg10)} | ${round(t.baselineRecall5)} | ${round(t.baselineNdcg10)} |`),
        `| all | ${rows.length} | ${round(overall.recall5)} | ${round(overall.ndcg10)} | ${round(mean(rows.map((r) => r.baseRecall)))} | ${round(overall.baselineNdcg10)} |`,
      ].join('\n'),
    );
    const misses = rows.filter((row) => row.recall < 1).map((row) => `${row.category}: ${row.q} → ${row.got.slice(0, 5).join(', ')}`);
    if (misses.length > 0) console.log(`misses:\n${misses.join('\n')}`);
    for (const t of table) {
      expect({ category: t.category, recall5: t.recall5 >= 0.95 }).toEqual({ category: t.category, recall5: true });
      expect({ category: t.category, atLeastBaseline: t.ndcg10 >= t.baselineNdcg10 }).toEqual({ category: t.category, atLeastBaseline: true });
    }
    expect(overall.ndcg10).toBeGreaterThanOrEqual(overall.baselineNdcg10 + 0.15);
  });

  it("gives the same results, scores included, when another tenant stores 2,000 memories", async () => {
    const before = new Map(await Promise.all(QUERIES.map(async (labelled) => [labelled.q, await serviceRanking(labelled.q)] as const)));
    const neighbour = await server.services.operator.provision({ name: 'Neighbour', ownerEmail: 'neighbour@relevance.example' }, 'test');
    // The neighbour writes about the same things, many times over: its words would shift
    // any table-wide statistics.
    const texts = Object.values(MEMORIES);
    const now = Date.now();
    const rows = Array.from({ length: 2000 }, (_, i) => {
      const createdAt = new Date(now + i);
      return { id: newId('memory', createdAt), orgId: neighbour.org.id, userId: neighbour.user.id, scope: 'user' as const, source: 'api' as const, content: `${texts[i % texts.length]} ${texts[(i * 13) % texts.length]}`, tags: [], createdAt };
    });
    for (let i = 0; i < rows.length; i += 500) await insertMemoriesBulk(server.database.db, rows.slice(i, i + 500));
    const changed = await Promise.all(
      QUERIES.map(async (labelled) => {
        const after = await serviceRanking(labelled.q);
        return JSON.stringify(after) === JSON.stringify(before.get(labelled.q)) ? [] : [labelled.q];
      }),
    );
    expect(changed.flat()).toEqual([]);
  });
});
