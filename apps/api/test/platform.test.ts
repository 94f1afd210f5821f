import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './support/http';
import { startTestServer, type TestServer } from './support/server';

let server: TestServer;
let logs = '';

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs += chunk.toString();
      done();
    },
  });
  server = await startTestServer({
    logger: pino({ level: 'info' }, sink),
    extend: (app) => {
      app.get('/v1/test-bug', () => {
        throw new Error("ER_PARSE_ERROR near 'SELECT secret FROM memory' at /srv/app/db.ts:12");
      });
      // A failing query whose parameters hold what a user stored.
      app.get('/v1/test-query-bug', async () => {
        await server.database.db.execute(sql`SELECT * FROM no_such_table WHERE content = ${'PRIVATE-TEXT-7f3a'}`);
        return new Response('unreachable');
      });
    },
  });
});
afterAll(() => server.close());

describe('errors', () => {
  it('answers unknown routes with a 404 problem', async () => {
    for (const [method, path] of [['GET', '/nope'], ['POST', '/v1/nothing'], ['GET', '/v1/memory/search/extra/segments']] as const) {
      const res = await request(server.url, method, path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ type: expect.any(String), title: 'Not Found', status: 404, detail: expect.any(String), request_id: res.headers.get('x-request-id') });
    }
  });

  it('hides a thrown bug behind a plain 500 problem: no stack, no SQL', async () => {
    const res = await request(server.url, 'GET', '/v1/test-bug');
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toEqual({
      type: 'urn:memory-bank:problem:internal',
      title: 'Internal Server Error',
      status: 500,
      detail: expect.any(String),
      request_id: res.headers.get('x-request-id'),
    });
    expect(res.text).not.toMatch(/SELECT|ER_PARSE|db\.ts|at /);
  });

  it('logs a failed query without its parameters', async () => {
    const res = await request(server.url, 'GET', '/v1/test-query-bug');
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('PRIVATE-TEXT-7f3a');
    expect(logs).toContain('ER_NO_SUCH_TABLE');
    expect(logs).toContain(res.body.request_id);
    expect(logs).not.toContain('PRIVATE-TEXT-7f3a');
  });

  it('puts x-request-id on every response and keeps a well-formed incoming one', async () => {
    for (const path of ['/healthz', '/v1/memory', '/nope', '/openapi.json']) {
      const res = await request(server.url, 'GET', path);
      expect(res.headers.get('x-request-id')).toMatch(/^[\w-]{8,}$/);
    }
    const echoed = await request(server.url, 'GET', '/v1/memory', { headers: { 'x-request-id': 'trace-abc-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-abc-123');
    expect(echoed.body.request_id).toBe('trace-abc-123');
    const replaced = await request(server.url, 'GET', '/v1/memory', { headers: { 'x-request-id': 'bad id <script>' } });
    expect(replaced.headers.get('x-request-id')).not.toContain('<');
  });
});

describe('OpenAPI and reference', () => {
  it('serves an OpenAPI 3.1 document with the contract operationIds', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId?: string; responses: Record<string, unknown> }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    const ops = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, ...op })));
    const byId = Object.fromEntries(ops.map((op) => [op.operationId, `${op.method.toUpperCase()} ${op.path}`]));
    expect(byId).toMatchObject({
      postMemory: 'POST /v1/memory',
      getMemory: 'GET /v1/memory',
      getMemorySearch: 'GET /v1/memory/search',
      deleteMemoryById: 'DELETE /v1/memory/{id}',
      getMemoryById: 'GET /v1/memory/{id}',
      patchMemoryById: 'PATCH /v1/memory/{id}',
    });
    const ids = ops.map((op) => op.operationId);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of ops.filter((o) => o.path.startsWith('/v1/'))) {
      expect(Object.keys(op.responses), `${op.operationId} lists its errors`).toEqual(expect.arrayContaining(['500', '503']));
    }
  });

  it('serves the interactive reference at /docs with its assets, from this server', async () => {
    const page = await fetch(`${server.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('swagger-ui-bundle.js');
    expect(html).not.toMatch(/https?:\/\/(?!127)/);
    for (const asset of ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/init.js']) {
      const res = await fetch(server.url + asset);
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(10);
    }
  });

  it('reports liveness and readiness', async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'current', pending: [] });
  });
});
