import { LOCAL_MODEL_KEY } from '../../src/embeddings/provider';
import { createMigratedDatabase } from '../../test/support/database';
import { memoryText, seededRandom } from '../corpus';
import { noCpuSpent, perOperation, withCpu, type CpuSpent } from '../cpu';
import { combined, paced, recorder, ROUNDS, sequential, type Measurement, type Recorder } from '../load';
import { openBenchApp, provisionTenants, seedMemories, type Tenant } from '../seed';
import { rssOf, startService, withPeakRss, type RunningService } from '../service';
import { ratio, type BenchContext, type Ratio, type Scale, type ScenarioReport } from './context';
import { agentQueries, allEmbedded, assignVectors, embeddingLags, WAIT_MS } from './semantic-data';

/**
 * Search by meaning with the local model (issue 44): search through the API with and without
 * the semantic leg at two owner sizes, saves with the provider `none` beside `local`, the
 * embedding lag under a steady rate of saves, and the local service's resident memory.
 *
 * In a database of its own: with the local model the service embeds every memory without a
 * vector in the background (the backfill), and the other scenarios' tenants have none.
 */

/** Memories of the two owners searched (one owner each). */
const SIZES: Record<Scale['name'], readonly [number, number]> = { smoke: [100, 400], small: [2_000, 20_000], medium: [2_000, 20_000], large: [2_000, 20_000] };
/** Texts the model embeds per owner; every seeded row gets one of their vectors. */
const DISTINCT_TEXTS: Record<Scale['name'], number> = { smoke: 24, small: 300, medium: 300, large: 300 };
/** Seconds of each steady-rate round (three rounds per provider). */
const STEADY_SECONDS: Record<Scale['name'], number> = { smoke: 1, small: 10, medium: 10, large: 10 };
const SAVES_PER_SECOND = 20;
/** Queries an agent repeats (their vectors are in the service's query cache). */
const REPEATED_QUERIES = 16;
const FIRST_INDEX = 5_000_000;
const METRICS_TOKEN = 'bench-semantic-metrics-token';

type Kind = 'lexical' | 'hybrid, new queries' | 'hybrid, repeated queries';
const KINDS: readonly Kind[] = ['lexical', 'hybrid, new queries', 'hybrid, repeated queries'];

/** A gauge or counter of the service's /metrics. */
async function metric(service: RunningService, name: string): Promise<number> {
  const text = await (await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? Number.NaN : Number(line.split(' ')[1]);
}

const at = (n: number) => n.toLocaleString('en');
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const spread = (rounds: readonly Measurement[], of: 'p50' | 'p95') => rounds.map((m) => m[of]).join('/');

export async function semantic(ctx: BenchContext, log: (line: string) => void = () => {}): Promise<ScenarioReport> {
  const sizes = SIZES[ctx.scale.name];
  const count = ctx.scale.sequential;
  const database = await createMigratedDatabase(ctx.databaseServerUrl, 'bench');
  const bench = openBenchApp(database.url, { poolSize: 4 });
  const pool = bench.handle.pool;
  const running: RunningService[] = [];
  try {
    const tenants = await provisionTenants(bench.app.services, Array.from({ length: 6 }, (_, i) => FIRST_INDEX + i));
    const [smaller, larger, noneWriter, localWriter, noneSteady, localSteady] = tenants as [Tenant, Tenant, Tenant, Tenant, Tenant, Tenant];
    const owners = [
      { tenant: smaller, size: sizes[0] },
      { tenant: larger, size: sizes[1] },
    ];
    log(`semantic: seeding owners of ${sizes.map(at).join(' and ')} memories, vectors of ${DISTINCT_TEXTS[ctx.scale.name]} texts each`);
    for (const { tenant, size } of owners) await seedMemories(bench.handle.db, [tenant], size);
    await assignVectors(pool, [smaller, larger], DISTINCT_TEXTS[ctx.scale.name]);

    // Both services as the bench runs the service, with metrics on (to see the matrices load);
    // the sweep is put past the run, so the local one never embeds what the other one saves.
    const env = { ...ctx.serviceEnv, DATABASE_URL: database.url, METRICS_TOKEN, EMBEDDINGS_SWEEP_MS: String(86_400_000) };
    const none = await startService({ ...env, EMBEDDINGS_PROVIDER: 'none' });
    running.push(none);
    const local = await startService({ ...env, EMBEDDINGS_PROVIDER: 'local' });
    running.push(local);

    const search = (tenant: Tenant, kind: Kind, found: { semantic: number }) => async (query: string) => {
      const mode = kind === 'lexical' ? '&mode=lexical' : '';
      const res = await fetch(`${local.url}/v1/memory/search?q=${encodeURIComponent(query)}&limit=20${mode}`, { headers: { authorization: `Bearer ${tenant.key}` } });
      const body = (await res.json()) as { results?: { match?: { semantic?: boolean } }[] };
      if (body.results?.some((result) => result.match?.semantic)) found.semantic += 1;
      return res.ok;
    };
    const random = seededRandom(0x5e4a);
    const save = (service: RunningService, tenant: Tenant) => async () => {
      const res = await fetch(`${service.url}/v1/memory`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: memoryText(random) }),
      });
      await res.arrayBuffer();
      return res.status === 201;
    };

    // The local service's RSS peak per phase (the outer sampling covers them all).
    const peaks: Record<string, number> = {};
    const phase = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
      const { result, peak } = await withPeakRss(local.pid, run);
      peaks[name] = peak;
      return result;
    };
    const work = async () => {
      // Warm: the model loads in the service's worker thread at start; a search whose query
      // vector is late (the deadline) skips the meaning leg without loading the matrix, so
      // search each owner until the service holds both matrices.
      const vectorBytes = (sizes[0] + sizes[1]) * 512;
      const warmedBy = Date.now() + WAIT_MS;
      const noted = { semantic: 0 };
      await phase('warm-up', async () => {
        while ((await metric(local, 'memory_bank_semantic_cache_bytes')) < vectorBytes) {
          if (Date.now() > warmedBy) throw new Error('semantic: the service did not load the owners’ matrices');
          for (const { tenant } of owners) await search(tenant, 'hybrid, new queries', noted)(`what did we note about ${tenant.texts[0]!.split(' ').slice(1, 4).join(' ')}`);
        }
      });
      const warmRss = { local: rssOf(local.pid), none: rssOf(none.pid) };

      // Searches: per round and owner, the three kinds in rotated order, each on queries of its own.
      log('semantic: searches with and without the meaning leg');
      const seen = new Set<string>();
      const queries = owners.map(({ tenant }, o) => ({
        fresh: agentQueries(tenant.texts, count * ROUNDS, 101 + o, seen),
        repeated: agentQueries(tenant.texts, REPEATED_QUERIES, 201 + o, seen),
      }));
      const rounds = new Map<string, { recorders: Recorder[]; measured: Measurement[]; cpu: CpuSpent; found: { semantic: number } }>();
      await phase('searches', async () => {
        for (let round = 0; round < ROUNDS; round++) {
          for (const [o, { tenant, size }] of owners.entries()) {
            const fresh = queries[o]!.fresh.slice(round * count, (round + 1) * count);
            const repeated = queries[o]!.repeated;
            for (const kind of [...KINDS.slice(round % KINDS.length), ...KINDS.slice(0, round % KINDS.length)]) {
              const label = `search, ${kind} @ ${at(size)}`;
              const entry = rounds.get(label) ?? { recorders: [], measured: [], cpu: noCpuSpent(true), found: { semantic: 0 } };
              rounds.set(label, entry);
              const run = search(tenant, kind, entry.found);
              // Unrecorded: the repeated queries' vectors back in the query cache (newer queries push them out).
              for (const query of kind === 'lexical' ? repeated.slice(0, 4) : repeated) await run(query);
              if (kind !== 'lexical') entry.found.semantic = 0;
              const into = recorder();
              const measured = await withCpu(entry.cpu, local.pid, [], () => sequential(label, count, (i) => run(kind === 'hybrid, repeated queries' ? repeated[i % repeated.length]! : fresh[i]!), into));
              entry.recorders.push(into);
              entry.measured.push(measured);
            }
          }
        }
      });

      // Saves, back to back: rounds alternated between the providers (order rotated); after a
      // local round its memories are all embedded before the next round starts.
      log('semantic: saves with the provider none and local');
      const saveRounds = { none: [] as Recorder[], local: [] as Recorder[] };
      const saveMeasured = { none: [] as Measurement[], local: [] as Measurement[] };
      const steadyRounds = { none: [] as Recorder[], local: [] as Recorder[] };
      const steadyMeasured = { none: [] as Measurement[], local: [] as Measurement[] };
      const lagRounds: Recorder[] = [];
      const sides = { none: { service: none, writer: noneWriter, steady: noneSteady }, local: { service: local, writer: localWriter, steady: localSteady } };
      await phase('saves back to back', async () => {
        for (let round = 0; round < ROUNDS; round++) {
          for (const provider of round % 2 === 0 ? (['none', 'local'] as const) : (['local', 'none'] as const)) {
            const { service, writer } = sides[provider];
            const into = recorder();
            saveMeasured[provider].push(await sequential(`save, provider ${provider}`, count, save(service, writer), into));
            saveRounds[provider].push(into);
            if (provider === 'local' && !(await allEmbedded(pool, writer.orgId))) throw new Error('semantic: saves not embedded within the wait');
          }
        }
      });
      // Saves at a steady rate, alternated the same way; the local rounds' memories give the lag.
      log(`semantic: ${SAVES_PER_SECOND} saves/s, embedding lag`);
      await phase(`saves at ${SAVES_PER_SECOND}/s`, async () => {
        for (let round = 0; round < ROUNDS; round++) {
          for (const provider of round % 2 === 0 ? (['none', 'local'] as const) : (['local', 'none'] as const)) {
            const { service, steady } = sides[provider];
            const since = new Date();
            const into = recorder();
            steadyMeasured[provider].push(await paced(`save @${SAVES_PER_SECOND}/s, provider ${provider}`, SAVES_PER_SECOND, STEADY_SECONDS[ctx.scale.name], save(service, steady), into));
            steadyRounds[provider].push(into);
            if (provider !== 'local') continue;
            if (!(await allEmbedded(pool, steady.orgId))) throw new Error('semantic: steady saves not embedded within the wait');
            const lags = recorder();
            for (const lag of await embeddingLags(pool, steady.orgId, since)) lags.histogram.recordValue(Math.max(1, lag));
            lags.seconds = into.seconds;
            lagRounds.push(lags);
          }
        }
      });
      const failures = await metric(local, 'memory_bank_embedding_failures_total');
      return { warmRss, rounds, saveRounds, saveMeasured, steadyRounds, steadyMeasured, lagRounds, failures };
    };

    const { result: inner, peak: nonePeak } = await withPeakRss(none.pid, () => withPeakRss(local.pid, work));
    const { result, peak: localPeak } = inner;
    const { rounds, saveRounds, saveMeasured, steadyRounds, steadyMeasured, lagRounds } = result;

    const measurements: Measurement[] = [];
    const p50 = new Map<string, number>();
    for (const [label, entry] of rounds) {
      const total = combined(label, 1, entry.recorders);
      measurements.push(total);
      p50.set(label, total.p50);
    }
    const saves = { none: combined('save, provider none', 1, saveRounds.none), local: combined('save, provider local', 1, saveRounds.local) };
    const steady = {
      none: combined(`save @${SAVES_PER_SECOND}/s, provider none`, Math.max(...steadyMeasured.none.map((m) => m.concurrency)), steadyRounds.none),
      local: combined(`save @${SAVES_PER_SECOND}/s, provider local`, Math.max(...steadyMeasured.local.map((m) => m.concurrency)), steadyRounds.local),
    };
    const lag = combined(`embedding lag (save → vector) @${SAVES_PER_SECOND}/s`, 1, lagRounds);
    measurements.push(saves.none, saves.local, steady.none, steady.local, lag);

    const ratios: Ratio[] = [];
    for (const { size } of owners) {
      const lexical = p50.get(`search, lexical @ ${at(size)}`)!;
      ratios.push(ratio(`search p50 hybrid (new queries) ÷ lexical @${at(size)}`, p50.get(`search, hybrid, new queries @ ${at(size)}`)! / lexical, '—', true));
      ratios.push(ratio(`search p50 hybrid (repeated queries) ÷ lexical @${at(size)}`, p50.get(`search, hybrid, repeated queries @ ${at(size)}`)! / lexical, '—', true));
    }
    for (const [label, entry] of rounds) {
      ratios.push(ratio(`${label}: service CPU ms per search`, perOperation(entry.cpu.serving, count * ROUNDS) ?? Number.NaN, '—', true));
    }
    const saveRatio = saves.local.p50 / saves.none.p50;
    const steadyRatio = steady.local.p50 / steady.none.p50;
    ratios.push(ratio('save p50 local ÷ none (back to back)', saveRatio, '≤ 1.1', saveRatio <= 1.1));
    ratios.push(ratio(`save p50 local ÷ none @${SAVES_PER_SECOND}/s`, steadyRatio, '≤ 1.1', steadyRatio <= 1.1));
    ratios.push(ratio(`embedding lag p95 @${SAVES_PER_SECOND}/s (ms)`, lag.p95, '—', true));
    ratios.push(ratio('RSS peak, provider local (MB)', mb(localPeak), '≤ 350', localPeak > 0 && localPeak <= 350 * 1024 * 1024));
    ratios.push(ratio('RSS peak, provider none (MB)', mb(nonePeak), '—', true));
    ratios.push(ratio('RSS before the loads, provider local: model and matrices loaded (MB)', mb(result.warmRss.local), '—', true));
    ratios.push(ratio('RSS before the loads, provider none (MB)', mb(result.warmRss.none), '—', true));
    ratios.push(ratio('embedding failures', result.failures, '0', result.failures === 0));

    const perRound = [...rounds].map(([label, entry]) => `${label} ${spread(entry.measured, 'p50')} · ${spread(entry.measured, 'p95')}`);
    perRound.push(`save none ${spread(saveMeasured.none, 'p50')} · ${spread(saveMeasured.none, 'p95')}`, `save local ${spread(saveMeasured.local, 'p50')} · ${spread(saveMeasured.local, 'p95')}`);
    perRound.push(`save @${SAVES_PER_SECOND}/s none ${spread(steadyMeasured.none, 'p50')} · ${spread(steadyMeasured.none, 'p95')}`, `save @${SAVES_PER_SECOND}/s local ${spread(steadyMeasured.local, 'p50')} · ${spread(steadyMeasured.local, 'p95')}`);
    perRound.push(`embedding lag ${lagRounds.map((r) => combined('', 1, [r]).p50).join('/')} · ${lagRounds.map((r) => combined('', 1, [r]).p95).join('/')}`);
    const withMeaning = [...rounds].filter(([label]) => label.includes('hybrid')).map(([label, entry]) => `${label} ${entry.found.semantic} of ${count}`);
    return {
      scenario: 'semantic',
      measurements,
      ratios,
      notes: [
        `a database of its own: one owner of ${at(sizes[0])} and one of ${at(sizes[1])} memories (bench corpus, bulk-inserted), every row given a vector of the local model (${LOCAL_MODEL_KEY}): the model embedded each owner's first ${DISTINCT_TEXTS[ctx.scale.name]} texts once and row k got the vector of text k mod ${DISTINCT_TEXTS[ctx.scale.name]}, with the row's own content key (a scan costs the same whichever vectors the rows hold)`,
        'two services as child processes on that database, EMBEDDINGS_PROVIDER=local and =none, both with /metrics on and the sweep put past the run; the local one warmed first (searches until /metrics shows both owners’ matrices loaded)',
        `searches: sequential through GET /v1/memory/search (limit 20) on the local service; per round and owner lexical (mode=lexical), hybrid on queries never sent before (each pays its query's embedding) and hybrid on ${REPEATED_QUERIES} repeated queries (vectors cached: the scan and the fusion only), order rotated; ${ROUNDS} rounds of ${count}; queries from the owner's words, half questions in other words, half identifiers`,
        `saves: ${ROUNDS} rounds of ${count} back to back per provider, alternated (a local round's memories all embedded before the next round), then ${ROUNDS} rounds of ${STEADY_SECONDS[ctx.scale.name]} s at ${SAVES_PER_SECOND} saves/s per provider (an open loop), alternated the same way`,
        `embedding lag: from the database, each steady-rate save's memory.created_at (stamped just before its transaction) to its memory_vectors.embedded_at, ${lag.requests} memories`,
        `per round, p50 · p95 (ms): ${perRound.join('; ')}`,
        `hybrid answers holding a result placed by meaning, last round: ${withMeaning.join('; ')}`,
        `RSS: each service process’s VmRSS (/proc) sampled every 200 ms from its first /readyz to the end of the loads (the model loads in the warm-up); the local one’s peak by phase: ${Object.entries(peaks).map(([name, bytes]) => `${name} ${mb(bytes)} MB`).join(', ')}`,
      ],
    };
  } finally {
    for (const service of running) await service.stop().catch(() => undefined);
    await bench.close();
    await database.drop();
  }
}
