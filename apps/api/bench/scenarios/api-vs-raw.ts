import { rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEARCH_TERMS_VERSION, inTransaction, memory, memorySearchTerms, newId, searchTag } from '@memory-bank/db';
import { applyStatsDelta, statsDeltaOf } from '@memory-bank/db/system';
import { memoryText, seededRandom } from '../corpus';
import { databasePids, noCpuSpent, perOperation, withCpu, type CpuSpent } from '../cpu';
import { alternate, closedLoop, httpLoad, recorder, ROUNDS, type Measurement, type Recorder } from '../load';
import { startBareServer, withPeakRss } from '../service';
import { ratio, type BenchContext, type ScenarioReport } from './context';
import { KEY_CACHE_MS, keyLookup, searchStatements } from './statements';

/**
 * Scenario 1: the API against the physical limit — the same SQL statements sent straight
 * through mysql2 on a pool of the same size, at the same concurrency — and, for searches,
 * against a bare HTTP server that sends those statements and answers their rows (what any
 * HTTP API pays on this machine, its load generator's share included).
 */
export async function apiVsRaw(ctx: BenchContext): Promise<ScenarioReport> {
  const measurements: Measurement[] = [];
  const ratios = [];
  const auth = { authorization: `Bearer ${ctx.probe.key}` };
  // Saves go to a tenant of their own, so the probe's searches keep reading the same data.
  const writer = ctx.writer;
  const writerAuth = { authorization: `Bearer ${writer.key}` };
  const plans: Awaited<ReturnType<typeof searchStatements>>['all'][] = [];
  for (const query of ctx.queries) plans.push((await searchStatements(ctx, query)).all);
  const probeAuthStatement = (await searchStatements(ctx, ctx.queries[0]!)).auth;
  const writerAuthStatement = (await searchStatements({ ...ctx, probe: writer }, ctx.queries[0]!)).auth;
  const pool = ctx.database.pool;
  const probeKey = keyLookup(pool, probeAuthStatement);
  const writerKey = keyLookup(pool, writerAuthStatement);
  const random = seededRandom(0xca11);
  const texts = Array.from({ length: 2000 }, () => memoryText(random));
  const userTag = searchTag('u', writer.userId);
  const plansFile = join(tmpdir(), `memory-bank-bench-plans-${process.pid}.json`);
  writeFileSync(plansFile, JSON.stringify({ auth: probeAuthStatement, searches: plans }));
  const bare = await startBareServer({ DATABASE_URL: ctx.databaseUrl, POOL_SIZE: String(ctx.poolSize), PLANS_FILE: plansFile });
  const database = databasePids();
  const notes: string[] = [];
  try {
    for (const concurrency of ctx.scale.concurrency) {
      const common = { concurrency, seconds: ctx.scale.seconds / ROUNDS };
      const recorders = { searchApi: recorder(), searchRaw: recorder(), searchBare: recorder(), saveApi: recorder(), saveRaw: recorder() };
      const result = {} as Record<keyof typeof recorders, Measurement>;
      let n = 0;
      const workloads: Record<keyof typeof recorders, (into: Recorder) => Promise<Measurement>> = {
        searchApi: (into) =>
          httpLoad({
            ...common,
            into,
            name: 'search via API',
            url: ctx.service.url,
            requests: ctx.queries.map((q) => ({ method: 'GET' as const, path: `/v1/memory/search?q=${encodeURIComponent(q)}&limit=20`, headers: auth })),
          }),
        searchRaw: (into) =>
          closedLoop({
            ...common,
            into,
            name: 'search via mysql2',
            operation: async (i) => {
              await probeKey();
              // Rows serialised to JSON, as the API answers them.
              for (const statement of plans[i % plans.length]!) JSON.stringify((await pool.query(statement.sql, statement.params))[0]);
            },
          }),
        searchBare: (into) =>
          httpLoad({
            ...common,
            into,
            name: 'search via a bare HTTP server',
            url: bare.url,
            requests: plans.map((_, i) => ({ method: 'GET' as const, path: `/search?i=${i}` })),
          }),
        saveApi: (into) =>
          httpLoad({
            ...common,
            into,
            name: 'save via API',
            url: ctx.service.url,
            requests: [
              {
                method: 'POST',
                path: '/v1/memory',
                headers: { ...writerAuth, 'content-type': 'application/json' },
                setupRequest: (request) => ({ ...request, body: JSON.stringify({ content: texts[n++ % texts.length] }) }),
              },
            ],
          }),
        saveRaw: (into) =>
          closedLoop({
            ...common,
            into,
            name: 'save via mysql2',
            operation: async (i) => {
              const content = texts[i % texts.length]!;
              const now = new Date();
              const terms = memorySearchTerms(userTag, content);
              const row = { id: newId('memory', now), orgId: writer.orgId, userId: writer.userId, scope: 'user' as const, source: 'api' as const, content, tags: [], searchTerms: terms.searchTerms, searchVersion: SEARCH_TERMS_VERSION, contextCount: 0, createdAt: now, updatedAt: now };
              // What the API sends for a memory without contexts: the key lookup, then in one
              // transaction the INSERT and the owner's search statistics.
              await writerKey();
              await inTransaction(ctx.database.db, async (tx) => {
                await tx.insert(memory).values(row);
                await applyStatsDelta(tx, writer.orgId, writer.userId, statsDeltaOf(terms.counts, terms.length, 1));
              });
            },
          }),
      };
      // Searches and saves are alternated apart, searches first, each after an unrecorded
      // warm-up of every workload at this concurrency (saves first): a search round run right
      // after a round of inserts pays for the database's work on them (purge, flushing, the
      // full-text cache), and in one alternation of all five the API's searches always came
      // right after the mysql2 saves.
      const groups: (keyof typeof recorders)[][] = [
        ['searchApi', 'searchRaw', 'searchBare'],
        ['saveApi', 'saveRaw'],
      ];
      for (const name of [...groups[1]!, ...groups[0]!]) await workloads[name](recorder());
      // The CPU each workload's rounds took: the process serving it (none for the raw driver), the database, this process.
      const serving: Record<keyof typeof recorders, number | null> = { searchApi: ctx.service.pid, searchRaw: null, searchBare: bare.pid, saveApi: ctx.service.pid, saveRaw: null };
      const cpu = Object.fromEntries(Object.entries(serving).map(([name, pid]) => [name, noCpuSpent(pid !== null)])) as Record<keyof typeof recorders, CpuSpent>;
      const load = async () => {
        for (const group of groups)
          await alternate(
            ROUNDS,
            group.map((name) => async () => {
              result[name] = await withCpu(cpu[name], serving[name], database, () => workloads[name](recorders[name]));
            }),
          );
      };
      const { peak } = await withPeakRss(ctx.service.pid, load);
      ctx.peakRss['api-vs-raw'] = Math.max(ctx.peakRss['api-vs-raw'] ?? 0, peak);
      measurements.push(result.searchApi, result.searchRaw, result.searchBare, result.saveApi, result.saveRaw);
      const search = result.searchApi.throughput / result.searchRaw.throughput;
      const save = result.saveApi.throughput / result.saveRaw.throughput;
      // No target: it cannot reach 0.8 when the service, the database and the load share two cores (docs/benchmarks.md).
      ratios.push(ratio(`search throughput API ÷ mysql2 @${concurrency}`, search, '—', true));
      ratios.push(ratio(`search throughput bare HTTP server ÷ mysql2 @${concurrency} (HTTP alone, for comparison)`, result.searchBare.throughput / result.searchRaw.throughput, '—', true));
      ratios.push(ratio(`save throughput API ÷ mysql2 @${concurrency}`, save, '≥ 0.8', save >= 0.8));
      const per = (name: keyof typeof recorders) => {
        const { requests } = result[name];
        const ms = (value: number | null) => perOperation(value, requests)?.toFixed(3) ?? '–';
        return `${result[name].name} ${ms(cpu[name].serving)} · ${ms(cpu[name].database)} · ${ms(cpu[name].here)}`;
      };
      const servingPer = (name: 'searchApi' | 'searchBare' | 'saveApi') => perOperation(cpu[name].serving, result[name].requests) ?? Number.NaN;
      ratios.push(ratio(`search via API @${concurrency}: service CPU ms per search (at saturation)`, servingPer('searchApi'), '—', true));
      ratios.push(ratio(`search via a bare HTTP server @${concurrency}: its CPU ms per search (at saturation)`, servingPer('searchBare'), '—', true));
      ratios.push(ratio(`save via API @${concurrency}: service CPU ms per save (at saturation)`, servingPer('saveApi'), '—', true));
      notes.push(
        `CPU ms per operation @${concurrency}, serving process · database · benchmark process (load generator, or the mysql2 side's client): ${(Object.keys(workloads) as (keyof typeof recorders)[]).map(per).join('; ')}. With everything on this machine's ${availableParallelism()} cores, throughput ≈ cores × 1,000 ÷ their sum.`,
      );
    }
  } finally {
    await bare.stop();
    rmSync(plansFile, { force: true });
  }
  return {
    scenario: 'api-vs-raw',
    measurements,
    ratios,
    notes: [
      ...notes,
      `At each concurrency every workload was warmed up (saves first), then the searches ran in ${ROUNDS} alternating rounds (API, mysql2, bare HTTP server, repeated) and the saves after them in ${ROUNDS} (API, mysql2), so drift on a shared machine touches both sides alike and no search round follows a round of inserts.`,
      `bare HTTP server: node:http and the same pool, per request the mysql2 side's statements for one search (the key lookup once per ${KEY_CACHE_MS} ms), the first 20 candidates' memory columns answered as JSON; no authentication, ranking or highlights (apps/api/bench/bare-server.ts).`,
      `mysql2 side: per search the API's own statements (the search, with the owners' statistics in it; contexts when a result has some) with the rows serialised to JSON, per save the INSERT and the owner's search statistics, the key lookup once a second as the API's key cache makes it (API_KEY_CACHE_MS), on a pool of ${ctx.poolSize} connections like the API's (DATABASE_POOL_SIZE). Saves go to a separate tenant so the searched data stays the same.`,
    ],
  };
}
