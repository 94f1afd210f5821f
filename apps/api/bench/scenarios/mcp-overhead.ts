import type autocannon from 'autocannon';
import { alternate, httpLoad, recorder, ROUNDS, type Measurement, type Recorder } from '../load';
import { withPeakRss } from '../service';
import { ratio, type BenchContext, type ScenarioReport } from './context';

/** Scenario 4: the same search as an MCP tools/call and as GET /v1/memory/search. */
export async function mcpOverhead(ctx: BenchContext): Promise<ScenarioReport> {
  const concurrency = ctx.scale.concurrency[0]!;
  const headers = { authorization: `Bearer ${ctx.probe.key}` };
  const mcpHeaders = { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const queries = ctx.queries.slice(0, 50);
  const call = (q: string, id: number) =>
    JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'getMemorySearch', arguments: { q, limit: 20 } } });

  // One call first: the tool must answer with results, not an error, or the load means nothing.
  const probe = await fetch(`${ctx.service.url}/mcp`, {
    method: 'POST',
    headers: mcpHeaders,
    body: call(queries[0]!, 1),
  });
  const answer = (await probe.json()) as { result?: { isError?: boolean; structuredContent?: { results?: unknown[] } } };
  if (!answer.result || answer.result.isError || !answer.result.structuredContent?.results) throw new Error(`MCP search failed: ${JSON.stringify(answer).slice(0, 300)}`);

  const into = { rest: recorder(), mcp: recorder() };
  let rest!: Measurement;
  let mcp!: Measurement;
  const searches = (name: string, recorded: Recorder, requests: autocannon.Request[]) =>
    httpLoad({ name, url: ctx.service.url, concurrency, seconds: ctx.scale.seconds / ROUNDS, into: recorded, requests });
  const restSearches = queries.map((q) => ({ method: 'GET' as const, path: `/v1/memory/search?q=${encodeURIComponent(q)}&limit=20`, headers }));
  const mcpSearches = queries.map((q, i) => ({ method: 'POST' as const, path: '/mcp', headers: mcpHeaders, body: call(q, i + 2) }));
  // Both paths warmed up (unrecorded) before either is measured: the scenarios before this
  // one have run REST searches for many seconds, and the MCP path's code would otherwise
  // be compiled during its first measured round.
  for (const requests of [restSearches, mcpSearches]) await searches('warm-up', recorder(), requests);
  const load = () =>
    alternate(ROUNDS, [
      async () =>
        (rest = await searches('search via REST', into.rest, restSearches)),
      async () =>
        (mcp = await searches('search via MCP tools/call', into.mcp, mcpSearches)),
    ]);
  ctx.peakRss.mcp = (await withPeakRss(ctx.service.pid, load)).peak;
  const latency = mcp.p50 / rest.p50;
  return {
    scenario: 'mcp',
    measurements: [rest, mcp],
    ratios: [
      ratio(`MCP ÷ REST search latency p50 @${concurrency}`, latency, '≤ 1.2', latency <= 1.2),
      ratio(`MCP ÷ REST search throughput @${concurrency}`, mcp.throughput / rest.throughput, '—', true),
    ],
    notes: [`REST and MCP loads ran in ${ROUNDS} alternating rounds after a warm-up of each; both ask for the same 50 queries with limit=20.`],
  };
}
