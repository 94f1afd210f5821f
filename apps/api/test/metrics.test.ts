import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedSecrets } from './fixtures/secrets';
import { newSessionId } from './support/hooks';
import { expectStatus, request } from './support/http';
import { REPO_ROOT } from './support/process';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';

/*
 * /metrics scraped from real servers after real traffic, parsed with a Prometheus
 * text-format parser (docs/observability.md).
 */

const TOKEN = 'metrics-token-for-tests-0123456789';

interface Sample {
  labels?: Record<string, string>;
  value?: string;
  count?: string;
  sum?: string;
  buckets?: Record<string, string>;
}
interface Family {
  name: string;
  type: string;
  metrics: Sample[];
}

interface Scrape {
  families: Map<string, Family>;
  /** Histogram series by name (`…_count`) and labels: the parser folds a histogram's labelled series into one. */
  histogramCounts: { name: string; labels: Record<string, string>; value: number }[];
}

async function scrape(url: string, token: string | null = TOKEN): Promise<Scrape> {
  const response = await fetch(`${url}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  // The parser throws on any line that is not valid text exposition format.
  const families = parsePrometheusTextFormat(text) as Family[];
  const histograms = new Set(families.filter((family) => family.type === 'HISTOGRAM').map((family) => `${family.name}_count`));
  const histogramCounts = [...text.matchAll(/^(\w+)(?:\{(.*)\})? (\S+)$/gm)]
    .filter((line) => histograms.has(line[1]!))
    .map((line) => ({
      name: line[1]!.replace(/_count$/, ''),
      labels: Object.fromEntries([...(line[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((label) => [label[1]!, label[2]!])),
      value: Number(line[3]),
    }));
  return { families: new Map(families.map((family) => [family.name, family])), histogramCounts };
}

const matches = (labels: Record<string, string> | undefined, wanted: Record<string, string>) =>
  Object.entries(wanted).every(([key, value]) => labels?.[key] === value);

/** The value of the series of `name` whose labels include `labels` (a histogram's count), or undefined. */
function valueOf(scraped: Scrape, name: string, labels: Record<string, string> = {}): number | undefined {
  const family = scraped.families.get(name);
  if (family?.type === 'HISTOGRAM') return scraped.histogramCounts.find((series) => series.name === name && matches(series.labels, labels))?.value;
  const sample = family?.metrics.find((m) => matches(m.labels, labels));
  return sample ? Number(sample.value) : undefined;
}

/** How much a series grew from one scrape to the next (counters start absent). */
const grown = (before: Scrape, after: Scrape, name: string, labels: Record<string, string> = {}) => (valueOf(after, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0);

let server: TestServer;
let owner: TestUser;

beforeAll(async () => {
  server = await startTestServer({ env: { METRICS_TOKEN: TOKEN, MEMORY_QUOTA_PER_ORG: '2' } });
  owner = (await createTenant(server.services, server.url)).owner;
});
afterAll(() => server.close());

describe('GET /metrics on the main port', () => {
  it('is refused without the token or with a wrong one', async () => {
    const none = await request(server.url, 'GET', '/metrics');
    expect(none.status).toBe(401);
    expect(none.body.code ?? none.body.type).toMatch(/unauthorized/);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await request(server.url, 'GET', '/metrics', { key: `${TOKEN}x` })).status).toBe(401);
    expect((await request(server.url, 'GET', '/metrics', { key: owner.key })).status).toBe(401);
  });

  it('counts requests by route template and status class, never by raw path', async () => {
    const before = await scrape(server.url);
    const created = await owner.api.post('/v1/memory', { body: { content: 'Metrics test: the deploy window is Tuesday' } });
    expectStatus(created, 201);
    expect((await owner.api.get(`/v1/memory/${created.body.id}`)).status).toBe(200);
    expect((await owner.api.get('/v1/memory/mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V')).status).toBe(404);
    expect((await owner.api.unchecked.get('/no/such/path/12345')).status).toBe(404);
    // Also matches /v1/memory/:id: the label is the route that answered.
    expect((await owner.api.get('/v1/memory/search?q=deploy')).status).toBe(200);
    const after = await scrape(server.url);

    const duration = 'memory_bank_http_request_duration_seconds';
    expect(after.families.get(duration)?.type).toBe('HISTOGRAM');
    const byId = { method: 'GET', route: '/v1/memory/:id' };
    expect(grown(before, after, duration, { ...byId, status_class: '2xx' })).toBe(1);
    expect(grown(before, after, duration, { ...byId, status_class: '4xx' })).toBe(1);
    expect(valueOf(after, duration, { method: 'POST', route: '/v1/memory', status_class: '2xx' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, duration, { method: 'GET', route: 'unmatched', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(grown(before, after, duration, { method: 'GET', route: '/v1/memory/search', status_class: '2xx' })).toBe(1);
    const routes = new Set(after.histogramCounts.filter((series) => series.name === duration).map((series) => series.labels.route));
    expect([...routes].filter((route) => route && /mem_|12345|no\/such/.test(route))).toEqual([]);
    expect(valueOf(after, 'memory_bank_http_problems_total', { code: 'not_found' })).toBeGreaterThanOrEqual(2);
    // Scrapes are not counted (nor in flight); nothing else is running.
    expect(valueOf(after, 'memory_bank_http_requests_in_flight')).toBe(0);
  });

  it('counts quota rejections, hook events (accepted, duplicate, redacted) and MCP tool calls', async () => {
    const before = await scrape(server.url);
    // An org of its own, so its quota (2) is reached here, whatever the other tests saved.
    const capped = (await createTenant(server.services, server.url)).owner;
    for (const content of ['first memory', 'second memory']) expect((await capped.api.post('/v1/memory', { body: { content } })).status).toBe(201);
    expect((await capped.api.post('/v1/memory', { body: { content: 'third memory' } })).status).toBe(409);

    const session = newSessionId();
    const payload = embedSecrets({ session_id: session });
    expect((await owner.api.post('/v1/hooks/claude-code', { body: payload, headers: { 'idempotency-key': 'metrics-1' } })).status).toBe(202);
    expect((await owner.api.post('/v1/hooks/claude-code', { body: payload, headers: { 'idempotency-key': 'metrics-1' } })).status).toBe(202);

    const mcp = new Client({ name: 'metrics-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${owner.key}` } } }));
    await mcp.callTool({ name: 'getMemorySearch', arguments: { q: 'deploy' } });
    await mcp.callTool({ name: 'getMemoryById', arguments: { id: 'mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V' } });
    await mcp.callTool({ name: 'noSuchTool', arguments: {} }).catch(() => undefined);
    await mcp.close();

    const families = await scrape(server.url);
    expect(grown(before, families, 'memory_bank_http_problems_total', { code: 'quota_exceeded' })).toBe(1);
    expect(grown(before, families, 'memory_bank_hook_events_total', { outcome: 'accepted' })).toBe(1);
    expect(grown(before, families, 'memory_bank_hook_events_total', { outcome: 'duplicate' })).toBe(1);
    const redactions = families.families.get('memory_bank_hook_redactions_total')!.metrics;
    const redactedBefore = before.families.get('memory_bank_hook_redactions_total')?.metrics ?? [];
    const total = (metrics: typeof redactions) => metrics.reduce((sum, m) => sum + Number(m.value), 0);
    expect(total(redactions) - total(redactedBefore)).toBeGreaterThanOrEqual(10);
    expect(redactions.every((m) => /^[a-z0-9_]+$/.test(m.labels!.kind!))).toBe(true);
    expect(grown(before, families, 'memory_bank_mcp_tool_calls_total', { tool: 'getMemorySearch', outcome: 'ok' })).toBe(1);
    expect(grown(before, families, 'memory_bank_mcp_tool_calls_total', { tool: 'getMemoryById', outcome: 'error' })).toBe(1);
    expect(grown(before, families, 'memory_bank_mcp_tool_calls_total', { tool: 'unknown', outcome: 'unknown_tool' })).toBe(1);
    // The tool's in-process request is a tool call, not another HTTP request.
    expect(grown(before, families, 'memory_bank_http_request_duration_seconds', { route: '/v1/memory/search' })).toBe(0);
    expect(grown(before, families, 'memory_bank_http_request_duration_seconds', { method: 'POST', route: '/mcp', status_class: '2xx' })).toBeGreaterThanOrEqual(3);
  });

  it('reports the database pool, the archive backlog and process metrics', async () => {
    // A hook event for the backlog (the archiver is not started here).
    expect((await owner.api.post('/v1/hooks/claude-code', { body: { session_id: newSessionId(), hook_event_name: 'UserPromptSubmit', prompt: 'for the backlog' } })).status).toBe(202);
    // The backlog is sampled at most once a second: a scrape within a second of the last
    // one (a fast machine) would still show the sample from before the hook event.
    await expect
      .poll(async () => valueOf(await scrape(server.url), 'memory_bank_archive_pending_events'), { timeout: 5000, interval: 100 })
      .toBeGreaterThanOrEqual(1);
    const families = await scrape(server.url);
    expect(valueOf(families, 'memory_bank_db_pool_connections', { state: 'size' })).toBe(8);
    expect(valueOf(families, 'memory_bank_db_pool_connections', { state: 'free' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(families, 'memory_bank_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
    expect(valueOf(families, 'memory_bank_db_pool_queued_requests')).toBe(0);
    // The scrape itself takes no turn (only /v1 requests do).
    expect(valueOf(families, 'memory_bank_db_pool_acquire_seconds')).toBeGreaterThan(0);
    expect(valueOf(families, 'memory_bank_archive_pending_events')).toBeGreaterThanOrEqual(1);
    expect(valueOf(families, 'memory_bank_archive_pending_bytes')).toBeGreaterThan(0);
    expect(valueOf(families, 'memory_bank_archive_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(families, 'memory_bank_archive_unstored_segments')).toBeGreaterThanOrEqual(0);
    expect(valueOf(families, 'memory_bank_archive_store_failures_total', { operation: 'segment' })).toBe(0);
    expect(valueOf(families, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(families, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('is what the Grafana dashboard queries, name for name', async () => {
    const families = await scrape(server.url);
    const dashboard = readFileSync(join(REPO_ROOT, 'docs/grafana-dashboard.json'), 'utf8');
    const queried = new Set([...dashboard.matchAll(/\b((?:memory_bank|process|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1]!));
    const exported = new Set(families.families.keys());
    const family = (name: string) => name.replace(/_(bucket|sum|count)$/, '');
    expect([...queried].filter((name) => !exported.has(name) && !exported.has(family(name)))).toEqual([]);
    const ours = [...exported].filter((name) => name.startsWith('memory_bank_'));
    expect(ours.filter((name) => ![...queried].some((q) => family(q) === name || q === name))).toEqual([]);
  });
});

describe('metrics off, and on a port of their own', () => {
  it('answers 404 at /metrics when neither METRICS_TOKEN nor METRICS_PORT is set', async () => {
    const plain = await startTestServer();
    try {
      expect(plain.metrics).toBeNull();
      const response = await request(plain.url, 'GET', '/metrics', { key: TOKEN });
      expect(response.status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('serves /metrics without a token on METRICS_PORT (and not on the main port); with METRICS_TOKEN too, it needs it', async () => {
    const own = await startTestServer({ env: { METRICS_PORT: '0', RATE_LIMIT_KEY_PER_SECOND: '0.001', RATE_LIMIT_KEY_BURST: '1' } });
    try {
      const listener = await own.serveMetrics(0, '127.0.0.1');
      const metricsUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
      expect((await request(own.url, 'GET', '/metrics')).status).toBe(404);
      expect((await request(metricsUrl, 'GET', '/v1/memory')).status).toBe(404);
      const user = (await createTenant(own.services, own.url)).owner;
      await user.api.get('/v1/memory');
      expect((await user.api.get('/v1/memory')).status).toBe(429);
      const families = await scrape(metricsUrl, null);
      // A registry per app: this one saw its own rate limit and nothing of the other server's traffic.
      expect(valueOf(families, 'memory_bank_http_problems_total', { code: 'rate_limited' })).toBe(1);
      expect(valueOf(families, 'memory_bank_http_problems_total', { code: 'quota_exceeded' })).toBeUndefined();
    } finally {
      await own.close();
    }
    const guarded = await startTestServer({ env: { METRICS_PORT: '0', METRICS_TOKEN: TOKEN } });
    try {
      const listener = await guarded.serveMetrics(0, '127.0.0.1');
      const metricsUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
      expect((await request(metricsUrl, 'GET', '/metrics')).status).toBe(401);
      await scrape(metricsUrl, TOKEN);
    } finally {
      await guarded.close();
    }
  });
});
