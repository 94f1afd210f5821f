import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './support/http';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant } from './support/tenants';

const APP = 'https://app.example.com';
const DEV = 'http://localhost:5173';
const STRANGER = 'https://evil.example.net';

let server: TestServer;
let tenant: TestTenant;

beforeAll(async () => {
  // A trailing slash in the list is tolerated: browsers send origins without one.
  server = await startTestServer({ env: { CORS_ORIGINS: `${APP}, ${DEV}/` } });
  tenant = await createTenant(server.services, server.url);
});
afterAll(() => server?.close());

const preflight = (on: TestServer, path: string, origin: string, method: string, headers = 'authorization,content-type') =>
  request(on.url, 'OPTIONS', path, {
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });

const listed = (value: string | null) => (value ?? '').split(',').map((item) => item.trim().toLowerCase());
const corsHeaders = (headers: Headers) => [...headers.keys()].filter((name) => name.startsWith('access-control-'));

describe('CORS for the web apps in CORS_ORIGINS', () => {
  it('answers preflights of /v1 routes and /mcp from an allowed origin with 204, without authentication', async () => {
    const cases: [string, string, string][] = [
      ['/v1/memory', 'POST', APP],
      ['/v1/memory', 'GET', DEV],
      ['/v1/memory/mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V', 'PATCH', APP],
      ['/v1/memory/mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V', 'DELETE', APP],
      ['/mcp', 'POST', APP],
    ];
    for (const [path, method, origin] of cases) {
      const res = await preflight(server, path, origin, method, 'authorization,content-type,idempotency-key,if-match,mcp-protocol-version,mcp-method,mcp-name');
      expect(res.status, `${method} ${path}`).toBe(204);
      expect(res.text).toBe('');
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(listed(res.headers.get('access-control-allow-methods'))).toContain(method.toLowerCase());
      expect(listed(res.headers.get('access-control-allow-headers'))).toEqual(
        expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'if-match', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-session-id', 'x-request-id']),
      );
      expect(res.headers.get('access-control-max-age')).toBe('600');
      expect(listed(res.headers.get('vary'))).toContain('origin');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('www-authenticate')).toBeNull();
    }
  });

  it('gives an origin outside the list no Access-Control-Allow-Origin', async () => {
    for (const origin of [STRANGER, 'https://app.example.com.evil.example.net', 'http://app.example.com', 'null']) {
      const res = await preflight(server, '/v1/memory', origin, 'POST');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      const actual = await request(server.url, 'GET', '/v1/memory', { key: tenant.owner.key, headers: { origin } });
      expect(actual.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('lets an allowed origin read answers, errors included, and the headers it needs', async () => {
    const ok = await request(server.url, 'GET', '/v1/memory', { key: tenant.owner.key, headers: { origin: APP } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(APP);
    expect(ok.headers.get('access-control-allow-credentials')).toBeNull();
    expect(ok.headers.get('x-request-id')).toBeTruthy();
    const exposed = listed(ok.headers.get('access-control-expose-headers'));
    expect(exposed).toEqual(expect.arrayContaining(['x-request-id', 'www-authenticate', 'retry-after', 'ratelimit', 'ratelimit-policy', 'mcp-session-id', 'etag', 'idempotent-replayed']));
    expect(listed(ok.headers.get('vary'))).toContain('origin');

    // A 401 must be readable too, or the web app cannot tell "sign in again" from a network error.
    const denied = await request(server.url, 'GET', '/v1/memory', { headers: { origin: APP } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe(APP);
    expect(denied.headers.get('www-authenticate')).toMatch(/^Bearer /);

    const missing = await request(server.url, 'GET', '/v1/nowhere', { headers: { origin: APP } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('admits any origin with *, never with credentials', async () => {
    const open = await startTestServer({ env: { CORS_ORIGINS: '*' } });
    try {
      const pre = await preflight(open, '/v1/memory', STRANGER, 'POST');
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
      const actual = await request(open.url, 'GET', '/healthz', { headers: { origin: STRANGER } });
      expect(actual.headers.get('access-control-allow-origin')).toBe('*');
      expect(actual.headers.get('access-control-allow-credentials')).toBeNull();
    } finally {
      await open.close();
    }
  });

  it('sends no CORS headers at all when CORS_ORIGINS is empty', async () => {
    const closed = await startTestServer({ env: { CORS_ORIGINS: '' } });
    try {
      const pre = await preflight(closed, '/v1/memory', APP, 'POST');
      expect(pre.status).not.toBe(204);
      expect(corsHeaders(pre.headers)).toEqual([]);
      const actual = await request(closed.url, 'GET', '/v1/memory', { key: tenant.owner.key, headers: { origin: APP } });
      expect(actual.status).toBe(200);
      expect(corsHeaders(actual.headers)).toEqual([]);
    } finally {
      await closed.close();
    }
  });
});
