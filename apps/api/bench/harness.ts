import { dropDatabase } from '@memory-bank/db/system';
import { createMigratedDatabase } from '../test/support/database';
import { startTestS3, type TestS3 } from '../test/support/s3';
import { searchQueries, typedQueries } from './corpus';
import { httpLoad, type Measurement } from './load';
import { apiVsRaw } from './scenarios/api-vs-raw';
import { cost } from './scenarios/cost';
import { SCALES, type BenchContext, type Scale, type ScenarioReport } from './scenarios/context';
import { ingestion } from './scenarios/ingestion';
import { isolationRatios, measureIsolation } from './scenarios/tenant-isolation';
import { mcpOverhead } from './scenarios/mcp-overhead';
import { ownerScaling } from './scenarios/owner-scaling';
import { recallLatency } from './scenarios/recall';
import { semantic } from './scenarios/semantic';
import { startup } from './scenarios/startup';
import { openBenchApp, provisionTenants, seedMemories, withFulltextRebuilt } from './seed';
import { startService } from './service';

export const SCENARIOS = ['api-vs-raw', 'tenant-isolation', 'ingestion', 'mcp', 'recall', 'cost', 'owner-scaling', 'semantic', 'startup'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface BenchOptions {
  scenarios: ScenarioName[];
  scale: Scale['name'];
  /** A MySQL/MariaDB server (no database): each run creates and drops its own database. */
  databaseServerUrl: string;
  log?: (line: string) => void;
}

export interface BenchResult {
  scale: Scale;
  startedAt: string;
  seconds: number;
  reports: ScenarioReport[];
  environment: Record<string, string>;
}

const POOL_SIZE = 16;

/** The whole benchmark against this repository's service: fresh database, real server, real load. */
export async function runBench(options: BenchOptions): Promise<BenchResult> {
  const scale = SCALES[options.scale];
  const log = options.log ?? (() => {});
  const began = performance.now();
  const wants = (name: ScenarioName) => options.scenarios.includes(name);
  const database = await createMigratedDatabase(options.databaseServerUrl, 'bench');
  let s3: TestS3 | undefined;
  const cleanups: (() => Promise<unknown>)[] = [() => dropDatabase(database.url)];
  try {
    if (wants('ingestion') || wants('cost')) {
      s3 = await startTestS3({ bucket: 'bench' });
      cleanups.unshift(() => s3!.stop());
    }
    // Loads of thousands of requests a second on one key: the rate limits would answer them.
    // Words only: with the local model the service would embed every seeded memory in the
    // background while the scenarios measure (a core for minutes).
    const serviceEnv = {
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      RATE_LIMIT_KEY_PER_SECOND: '0',
      RATE_LIMIT_ORG_PER_SECOND: '0',
      EMBEDDINGS_PROVIDER: 'none',
      ...(s3 ? s3.env('archive') : {}),
    };
    const capture: BenchContext['capture'] = { capturing: null };
    const bench = openBenchApp(database.url, { poolSize: POOL_SIZE, env: s3 ? s3.env('archive') : {}, logQuery: (sql, params) => capture.capturing?.push({ sql, params }) });
    cleanups.unshift(() => bench.close());
    const { handle, app: local } = bench;

    log(`starting the service (scale ${scale.name})`);
    const service = await startService(serviceEnv);
    cleanups.unshift(() => service.stop());

    const [probe, writer] = await provisionTenants(local.services, [0, 2_000_000]);
    await seedMemories(handle.db, [probe!], scale.perTenant);
    const ctx: BenchContext = {
      scale,
      database: handle,
      databaseUrl: database.url,
      databaseServerUrl: options.databaseServerUrl,
      capture,
      services: local.services,
      service,
      probe: probe!,
      writer: writer!,
      queries: searchQueries(probe!.texts, 200),
      typedQueries: typedQueries(probe!.texts, 99),
      peakRss: {},
      poolSize: POOL_SIZE,
      serviceEnv,
    };
    const reports: ScenarioReport[] = [];

    const alone = wants('tenant-isolation') ? (log('tenant isolation: probe alone'), await measureIsolation(ctx, 'alone')) : null;
    log(`seeding ${scale.tenants - 1} more tenants × ${scale.perTenant} memories`);
    const others = await provisionTenants(local.services, Array.from({ length: scale.tenants - 1 }, (_, i) => i + 1));
    const seed = () => seedMemories(handle.db, others, scale.perTenant);
    if (scale.tenants * scale.perTenant >= 100_000) await withFulltextRebuilt(handle.db, seed);
    else await seed();
    if (alone) {
      log('tenant isolation: probe among everyone');
      const crowded = await measureIsolation(ctx, 'crowded');
      reports.push({
        scenario: 'tenant-isolation',
        measurements: [alone.api, alone.apiTyped, alone.prefixed, alone.naive, crowded.api, crowded.apiTyped, crowded.prefixed, crowded.naive],
        ratios: isolationRatios(alone, crowded, scale.name),
        notes: [`probe: ${scale.perTenant} memories; alone = ${alone.rows} rows in the table, crowded = ${crowded.rows} rows (${scale.tenants} tenants sharing one Zipf vocabulary)`],
      });
    }
    if (wants('api-vs-raw')) {
      log('API vs mysql2');
      reports.push(await apiVsRaw(ctx));
    }
    if (wants('mcp')) {
      log('MCP overhead');
      reports.push(await mcpOverhead(ctx));
    }
    if (wants('recall')) {
      log('recall into a session');
      reports.push(await recallLatency(ctx));
    }
    if (wants('cost')) {
      log('CPU per operation');
      const [hooks] = await provisionTenants(local.services, [1_000_001]);
      reports.push(await cost(ctx, hooks!));
    }
    if (wants('ingestion')) {
      log('hook ingestion');
      const [hooks] = await provisionTenants(local.services, [1_000_000]);
      reports.push(await ingestion(ctx, hooks!, local.store));
    }
    if (wants('owner-scaling')) {
      log('one owner at growing sizes');
      reports.push(await ownerScaling(ctx, local.services));
    }
    if (wants('semantic')) {
      log('search by meaning with the local model');
      reports.push(await semantic(ctx, log));
    }
    if (wants('startup')) {
      log('start-up and footprint');
      reports.push(await startup(ctx));
    }
    return {
      scale,
      startedAt: new Date(Date.now() - (performance.now() - began)).toISOString(),
      seconds: Math.round((performance.now() - began) / 100) / 10,
      reports,
      environment: environment(),
    };
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  }
}

/**
 * The HTTP workloads against any service exposing POST /v1/memory and
 * GET /v1/memory/search?q=&limit= with bearer auth (e.g. a competitor, or a deployment).
 */
export async function runAgainstTarget(options: { targetUrl: string; token: string; scale: Scale['name']; log?: (line: string) => void }): Promise<BenchResult> {
  const scale = SCALES[options.scale];
  const began = performance.now();
  const headers = { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' };
  const texts = (await import('./corpus')).tenantMemories(0, Math.min(scale.perTenant, 1000));
  options.log?.(`seeding ${texts.length} memories through POST /v1/memory`);
  for (const content of texts) {
    const res = await fetch(new URL('/v1/memory', options.targetUrl), { method: 'POST', headers, body: JSON.stringify({ content }) });
    if (!res.ok) throw new Error(`POST /v1/memory answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  }
  const queries = searchQueries(texts, 200);
  const measurements: Measurement[] = [];
  for (const concurrency of scale.concurrency) {
    let n = 0;
    measurements.push(
      await httpLoad({
        name: 'save',
        url: options.targetUrl,
        concurrency,
        seconds: scale.seconds,
        requests: [{ method: 'POST', path: '/v1/memory', headers, setupRequest: (request) => ({ ...request, body: JSON.stringify({ content: texts[n++ % texts.length] }) }) }],
      }),
      await httpLoad({
        name: 'search',
        url: options.targetUrl,
        concurrency,
        seconds: scale.seconds,
        requests: queries.map((q) => ({ method: 'GET' as const, path: `/v1/memory/search?q=${encodeURIComponent(q)}&limit=20`, headers })),
      }),
    );
  }
  return {
    scale,
    startedAt: new Date().toISOString(),
    seconds: Math.round((performance.now() - began) / 100) / 10,
    reports: [{ scenario: `http against ${options.targetUrl}`, measurements, ratios: [], notes: [] }],
    environment: environment(),
  };
}

function environment(): Record<string, string> {
  return { node: process.version, platform: `${process.platform} ${process.arch}`, cpus: String((globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? '') };
}
