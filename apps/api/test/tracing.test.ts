import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTracing, statementSummary, type Tracing } from '../src/observability/tracing';
import { newSessionId } from './support/hooks';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';
import { expectStatus } from './support/http';

/*
 * Tracing through a real listening server, spans caught by an in-memory exporter
 * (docs/observability.md#tracing).
 */

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let server: TestServer;
let owner: TestUser;

beforeAll(async () => {
  tracing = createTracing(new SimpleSpanProcessor(exporter), { name: 'memory-bank-test', version: '0.0.0' });
  server = await startTestServer({ tracer: tracing.tracer, ownDatabase: true, env: { MCP_TOOL_TAGS: 'Memory,Workstreams' } });
  owner = (await createTenant(server.services, server.url)).owner;
});
afterAll(async () => {
  await server.close();
  await tracing.shutdown();
});
beforeEach(() => exporter.reset());

const spans = () => exporter.getFinishedSpans();
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
/** Every span under `root`, at any depth. */
function descendants(root: ReadableSpan): ReadableSpan[] {
  const all = spans();
  const found: ReadableSpan[] = [];
  const walk = (id: string) => {
    for (const span of all.filter((s) => parentOf(s) === id)) {
      found.push(span);
      walk(span.spanContext().spanId);
    }
  };
  walk(root.spanContext().spanId);
  return found;
}
const serverSpan = (name: string) => spans().find((span) => span.name === name && span.kind === SpanKind.SERVER);

describe('request spans', () => {
  it('continue the caller’s W3C trace, return a traceparent, and carry route, org and status', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const content = 'Tracing test: the launch code word is periwinkle-7781';
    const created = await owner.api.post('/v1/memory', { body: { content }, headers: { traceparent: `00-${traceId}-${callerSpanId}-01` } });
    expectStatus(created, 201);

    const span = serverSpan('POST /v1/memory');
    expect(span).toBeDefined();
    expect(span!.spanContext().traceId).toBe(traceId);
    expect(parentOf(span!)).toBe(callerSpanId);
    expect(span!.attributes).toMatchObject({ 'http.route': '/v1/memory', 'http.response.status_code': 201, 'memory_bank.org_id': owner.orgId, 'http.request.method': 'POST' });
    // The response names the server's span, in the caller's trace.
    expect(created.headers.get('traceparent')).toBe(`00-${traceId}-${span!.spanContext().spanId}-01`);

    // SQL statements are child spans, with their text and placeholders only.
    const statements = descendants(span!).filter((s) => s.attributes['db.system.name'] === 'mysql');
    expect(statements.length).toBeGreaterThanOrEqual(2);
    expect(statements.some((s) => /^INSERT/i.test(String(s.attributes['db.query.text'])))).toBe(true);
    expect(statements.every((s) => s.kind === SpanKind.CLIENT && s.spanContext().traceId === traceId)).toBe(true);

    // Nothing of the memory, the key or a statement's values in any span.
    const everything = JSON.stringify(spans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })));
    for (const secret of ['periwinkle', owner.key, owner.key.slice(-12), created.body.id]) expect(everything).not.toContain(secret);
  });

  it('start a new trace without a traceparent, and name unmatched routes by a fixed label', async () => {
    const response = await owner.api.get('/v1/memory/mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V');
    expectStatus(response, 404);
    const span = serverSpan('GET /v1/memory/:id');
    expect(span).toBeDefined();
    expect(parentOf(span!)).toBeUndefined();
    expect(span!.attributes['http.response.status_code']).toBe(404);
    expect(response.headers.get('traceparent')).toBe(`00-${span!.spanContext().traceId}-${span!.spanContext().spanId}-01`);

    expect((await owner.api.unchecked.get('/no/such/route/42')).status).toBe(404);
    expect(serverSpan('GET unmatched')).toBeDefined();
  });

  it('make an MCP tool call’s in-process request a child of the POST /mcp span', async () => {
    const mcp = new Client({ name: 'tracing-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${owner.key}` } } }));
    exporter.reset();
    await mcp.callTool({ name: 'getMemorySearch', arguments: { q: 'launch' } });
    await mcp.close();
    const outer = serverSpan('POST /mcp');
    expect(outer).toBeDefined();
    const inner = descendants(outer!).find((s) => s.name === 'GET /v1/memory/search');
    expect(inner?.kind).toBe(SpanKind.INTERNAL);
    expect(inner?.attributes['memory_bank.org_id']).toBe(owner.orgId);
    expect(descendants(inner!).some((s) => s.attributes['db.system.name'] === 'mysql')).toBe(true);
  });
});

describe('object-store spans', () => {
  it('cover the archiver’s writes and a request’s reads, with keys but no payloads', async () => {
    const session = newSessionId();
    const ingest = await owner.api.post('/v1/hooks/claude-code', {
      body: { session_id: session, hook_event_name: 'UserPromptSubmit', prompt: 'the vault combination is marmalade-4242' },
    });
    expectStatus(ingest, 202);
    exporter.reset();
    await server.archiver.runOnce(true);
    const stored = spans().find((s) => s.name === 'archive store segment');
    expect(stored).toBeDefined();
    const puts = descendants(stored!).filter((s) => s.name === 'object_store put');
    expect(puts.length).toBeGreaterThanOrEqual(1);
    expect(puts.some((s) => String(s.attributes['memory_bank.object_store.key']).endsWith('.jsonl'))).toBe(true);
    expect(descendants(stored!).some((s) => s.attributes['db.system.name'] === 'mysql')).toBe(true);

    exporter.reset();
    const raw = await owner.api.get(`/v1/workstreams/${ingest.body.workstream_id}/raw`);
    expectStatus(raw, 200);
    expect(raw.text).toContain('marmalade-4242');
    const request = serverSpan('GET /v1/workstreams/:id/raw');
    expect(descendants(request!).some((s) => s.name === 'object_store get')).toBe(true);
    expect(JSON.stringify(spans().map((s) => s.attributes))).not.toContain('marmalade');
  });
});

describe('statement text', () => {
  it('keeps placeholders and masks any literal', () => {
    expect(statementSummary("select `id` from `memory` where `org_id` = ? and `content` = 'it''s a \\'secret\\'' limit 20")).toBe(
      'select `id` from `memory` where `org_id` = ? and `content` = ? limit ?',
    );
    expect(statementSummary('SELECT "x", t1.c FROM t1')).toBe('SELECT ?, t1.c FROM t1');
  });
});
