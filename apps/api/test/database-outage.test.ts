import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { startTcpProxy } from './support/tcp-proxy';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';
import { expectStatus, type TestResponse } from './support/http';

let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
let server: TestServer;
let user: TestUser;

beforeAll(async () => {
  const real = new URL(inject('databaseUrl'));
  proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 3306) });
  const viaProxy = new URL(real);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  // No key cache: every request here must reach the database (a cached key would let
  // /mcp tools/list, which needs nothing else, answer through an outage).
  server = await startTestServer({ databaseUrl: viaProxy.toString(), env: { REQUEST_TIMEOUT_MS: '1500', API_KEY_CACHE_MS: '0' } });
  user = (await createTenant(server.services, server.url)).owner;
});
afterAll(async () => {
  await server.close();
  await proxy.close();
});

const expect503 = async (send: () => Promise<TestResponse>) => {
  const started = Date.now();
  const res = await send();
  expectStatus(res, 503);
  expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status: 503, request_id: expect.any(String) });
  expect(res.text).not.toMatch(/ECONN|mysql|SELECT|at .*\.ts/i);
  return Date.now() - started;
};

const recovers = async () => {
  await expect.poll(async () => (await user.api.get('/v1/memory')).status, { timeout: 10_000, interval: 200 }).toBe(200);
};

describe('database outage', () => {
  // Each test starts with the database reachable, whatever the one before left.
  beforeEach(async () => {
    proxy.setMode('forward');
    await recovers();
  });

  it('serves normally through the proxy', async () => {
    expect((await user.api.post('/v1/memory', { body: { content: 'before the outage' } })).status).toBe(201);
  });

  it('answers 503 with Retry-After, fast, when the database refuses connections; liveness stays up', async () => {
    proxy.setMode('refuse');
    for (const path of ['/v1/memory', '/v1/memory/search?q=outage'] as const) expect(await expect503(() => user.api.get(path))).toBeLessThan(5000);
    await expect503(() => user.api.post('/v1/memory', { body: { content: 'during outage' } }));
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'not_ready', database: 'unreachable' });
  });

  it('recovers by itself when the database returns, with what was saved before and nothing refused during', async () => {
    expect((await user.api.post('/v1/memory', { body: { content: 'saved before the outage' } })).status).toBe(201);
    proxy.setMode('refuse');
    await expect503(() => user.api.post('/v1/memory', { body: { content: 'refused during the outage' } }));
    proxy.setMode('forward');
    await recovers();
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const list = await user.api.get('/v1/memory');
    expectStatus(list, 200);
    const contents = list.body.memories.map((m) => m.content);
    expect(contents).toContain('saved before the outage');
    expect(contents).not.toContain('refused during the outage');
  });

  it('answers /readyz within a second when the database stops answering', async () => {
    proxy.setMode('blackhole');
    for (let probe = 0; probe < 2; probe++) {
      const started = performance.now();
      const ready = await fetch(`${server.url}/readyz`);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(ready.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await ready.json()).toMatchObject({ status: 503, type: 'urn:memory-bank:problem:unavailable', request_id: expect.any(String) });
    }
    proxy.setMode('refuse');
    proxy.setMode('forward');
    await recovers();
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  it('answers /mcp with 503 instead of hanging when the database stops answering', async () => {
    proxy.setMode('blackhole');
    const started = performance.now();
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    proxy.setMode('refuse');
    proxy.setMode('forward');
    await recovers();
  });

  it('answers 503 instead of hanging when the database stops answering', async () => {
    proxy.setMode('blackhole');
    expect(await expect503(() => user.api.get('/v1/memory'))).toBeLessThan(5000);
    proxy.setMode('refuse');
    proxy.setMode('forward');
    await recovers();
  });
});
