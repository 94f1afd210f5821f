// CPU per in-process request with metrics and tracing off or on (docs/observability.md#cost).
// One mode per process, since tracing's context manager slows every promise once registered:
//   npx tsx apps/api/bench/observability-cost.ts off|metrics|tracing
import { dropDatabase, ensureDatabase, migrateDatabase, openDatabase } from '@memory-bank/db/system';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { createTracing, statementSpans } from '../src/observability/tracing';

const mode = process.argv[2];
if (mode !== 'off' && mode !== 'metrics' && mode !== 'tracing') throw new Error('usage: observability-cost.ts off|metrics|tracing');
const server = process.env.DATABASE_SERVER_URL ?? 'mysql://root@127.0.0.1:3306';
const url = `${server}/mb_obscost_${Date.now().toString(36)}`;
const exporter = new InMemorySpanExporter();
const tracer = mode === 'tracing' ? createTracing(new SimpleSpanProcessor(exporter), { name: 'cost', version: '0' }).tracer : undefined;

async function round(): Promise<Record<string, number>> {
  const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', ARCHIVE_URL: 'file:///tmp/mb-obscost-archive', ...(mode === 'metrics' ? { METRICS_TOKEN: 'cost-metrics-token-0123' } : {}) });
  const database = openDatabase(url, { poolSize: 4, ...(tracer ? { traceStatement: statementSpans(tracer) } : {}) });
  const built = createApp({ db: database.db, config, logger: createLogger(config), ...(tracer ? { tracer } : {}) });
  const { apiKey } = await built.services.operator.provision({ name: 'cost', ownerEmail: `cost-${Date.now()}@example.test` }, 'bench');
  const auth = { authorization: `Bearer ${apiKey.key}` };
  const created = await built.app.request('/v1/memory', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ content: 'cost benchmark' }) });
  const { id } = (await created.json()) as { id: string };
  const perRequest: Record<string, number> = {};
  for (const [name, path, init] of [['GET /healthz', '/healthz', {}], ['GET /v1/memory/:id', `/v1/memory/${id}`, { headers: auth }]] as const) {
    const run = async (n: number) => {
      for (let i = 0; i < n; i++) {
        await (await built.app.request(path, init)).arrayBuffer();
        exporter.reset();
      }
    };
    await run(300);
    const before = process.cpuUsage();
    await run(3000);
    const used = process.cpuUsage(before);
    perRequest[name] = (used.user + used.system) / 3000;
  }
  await built.close({ flush: false });
  await database.close();
  return perRequest;
}

await ensureDatabase(url);
const setup = openDatabase(url, { poolSize: 1 });
await migrateDatabase(setup.pool);
await setup.close();
const best: Record<string, number> = {};
for (let i = 0; i < 5; i++) for (const [name, us] of Object.entries(await round())) best[name] = Math.min(best[name] ?? Infinity, us);
await dropDatabase(url);
for (const [name, us] of Object.entries(best)) console.log(`${mode}\t${name}\t${Math.round(us)} µs CPU per request (best of 5 × 3,000)`);
process.exit(0);
