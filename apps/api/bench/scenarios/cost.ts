import { databasePids, noCpuSpent, perOperation, withCpu } from '../cpu';
import { alternate, httpLoad, recorder, ROUNDS, type Measurement, type Recorder } from '../load';
import type { Tenant } from '../seed';
import { memoryText, seededRandom } from '../corpus';
import { ratio, type BenchContext, type Ratio, type ScenarioReport } from './context';
import { ARCHIVE_WAIT_MS, BATCH, batchEvent, singlePost, waitForArchive } from './ingestion';

/**
 * Where the CPU goes: a fixed number of each operation (at the first load concurrency, in
 * alternating rounds), with the CPU time the service process, the database server and this
 * process (the load generator, and the archive's s3rver) spent meanwhile, per operation. On
 * a machine whose cores all three share, these bound throughput: cores × 1,000 ÷ (their
 * sum) operations per second.
 */
export async function cost(ctx: BenchContext, hooks: Tenant): Promise<ScenarioReport> {
  const count = ctx.scale.sequential * 4;
  const concurrency = ctx.scale.concurrency[0]!;
  const auth = { authorization: `Bearer ${ctx.probe.key}` };
  const writerAuth = { authorization: `Bearer ${ctx.writer.key}`, 'content-type': 'application/json' };
  const hookAuth = { authorization: `Bearer ${hooks.key}`, 'content-type': 'application/json' };
  const random = seededRandom(0xc057);
  const texts = Array.from({ length: 1000 }, () => memoryText(random));
  const run = `cost${Date.now().toString(36)}`;
  const mcpCall = (q: string, id: number) =>
    JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'getMemorySearch', arguments: { q, limit: 20 } } });
  let n = 0;

  const operations: {
    name: string;
    requests: number;
    perRequest: number;
    request: Parameters<typeof httpLoad>[0]['requests'][number];
    /** Leaves work behind (the archiver seals the events after the request): measured on its own, last, until that is done. */
    leavesWork?: true;
  }[] = [
    {
      name: 'search via REST',
      requests: count,
      perRequest: 1,
      request: { method: 'GET', path: `/v1/memory/search?q=${encodeURIComponent(ctx.queries[0]!)}&limit=20`, headers: auth, setupRequest: (r) => ({ ...r, path: `/v1/memory/search?q=${encodeURIComponent(ctx.queries[n++ % ctx.queries.length]!)}&limit=20` }) },
    },
    {
      name: 'search via MCP',
      requests: count,
      perRequest: 1,
      request: {
        method: 'POST',
        path: '/mcp',
        headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        setupRequest: (r) => ({ ...r, body: mcpCall(ctx.queries[n % ctx.queries.length]!, n++) }),
      },
    },
    { name: 'save via REST', requests: count, perRequest: 1, request: { method: 'POST', path: '/v1/memory', headers: writerAuth, setupRequest: (r) => ({ ...r, body: JSON.stringify({ content: texts[n++ % texts.length] }) }) } },
    {
      name: 'hook event, single post',
      requests: count,
      perRequest: 1,
      leavesWork: true,
      // An Idempotency-Key per event, as the forwarders send (why: ingestion.ts, hookPayload).
      request: {
        method: 'POST',
        path: '/v1/hooks/claude-code',
        headers: hookAuth,
        setupRequest: (r) => {
          const post = singlePost(run, n++);
          return { ...r, headers: { ...hookAuth, 'idempotency-key': post.key }, body: post.body };
        },
      },
    },
    {
      name: `hook event, in batches of ${BATCH}`,
      requests: Math.max(2 * concurrency, Math.round((4 * count) / BATCH)),
      perRequest: BATCH,
      leavesWork: true,
      request: {
        method: 'POST',
        path: '/v1/hooks/batch',
        headers: hookAuth,
        setupRequest: (r) => ({
          ...r,
          body: JSON.stringify({ events: Array.from({ length: BATCH }, () => batchEvent(run, n++)) }),
        }),
      },
    },
  ];

  const measurements: Measurement[] = [];
  const ratios: Ratio[] = [];
  const notes: string[] = [];
  const database = databasePids();
  const load = (operation: (typeof operations)[number], amount: number, into?: Recorder) =>
    httpLoad({ name: operation.name, url: ctx.service.url, concurrency, seconds: 0, amount, requests: [operation.request], ...(into && { into }) });
  // The archive idle first (scenarios before this one post hook events, which the archiver
  // seals seconds later: measured one operation after another, the first one measured, REST
  // search, was charged that sealing and showed more CPU per search than the MCP search
  // after it, which does the same search and more). Then every operation warmed up (JIT,
  // pools, caches) before any is measured, and measured in alternating rounds. Hook events
  // come last, one operation at a time, each measured until the archive holds its events,
  // so the sealing they cause is counted against them.
  // Per operation: its requests' latencies, and the CPU its rounds took from each process.
  const spent = operations.map(() => ({ into: recorder(), measured: undefined as Measurement | undefined, cpu: noCpuSpent(true) }));
  const measure = (i: number, rounds: number) => () =>
    withCpu(spent[i]!.cpu, ctx.service.pid, database, async () => {
      const operation = operations[i]!;
      spent[i]!.measured = await load(operation, Math.max(concurrency, Math.ceil(operation.requests / rounds)), spent[i]!.into);
      if (operation.leavesWork) await waitForArchive(ctx, hooks.orgId, ARCHIVE_WAIT_MS);
    });
  const warmUp = (i: number) => load(operations[i]!, Math.max(concurrency, Math.round(operations[i]!.requests / 5)));
  await waitForArchive(ctx, null, ARCHIVE_WAIT_MS);
  const alternated = [...operations.keys()].filter((i) => !operations[i]!.leavesWork);
  for (const i of alternated) await warmUp(i);
  await alternate(ROUNDS, alternated.map((i) => measure(i, ROUNDS)));
  for (const i of operations.keys()) {
    if (!operations[i]!.leavesWork) continue;
    await warmUp(i);
    await measure(i, 1)();
  }
  for (const [i, operation] of operations.entries()) {
    const { measured, cpu } = spent[i]!;
    measurements.push(measured!);
    const ops = measured!.requests * operation.perRequest;
    ratios.push(ratio(`${operation.name}: service CPU ms per operation`, perOperation(cpu.serving, ops) ?? Number.NaN, '—', true));
    const dbPer = perOperation(cpu.database, ops);
    if (dbPer !== null) ratios.push(ratio(`${operation.name}: database CPU ms per operation`, dbPer, '—', true));
    notes.push(`${operation.name}: load generator (and s3rver) ${(cpu.here / Math.max(1, ops)).toFixed(3)} ms CPU per operation`);
  }
  if (database.length === 0) notes.push('The database server does not run on this machine: its CPU is not measured.');
  return { scenario: 'cost', measurements, ratios, notes };
}
