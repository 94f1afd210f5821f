import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant } from './support/tenants';

/**
 * The MCP endpoint runs a tool's route in-process as the already authenticated caller: it
 * may not mix callers up, and a call must not go through the HTTP middleware twice.
 */
let server: TestServer;
let tenants: TestTenant[];
const lines: { msg?: string; route?: string; status?: number }[] = [];

beforeAll(async () => {
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  server = await startTestServer({ logger });
  tenants = [await createTenant(server.services, server.url, 'Reuse A'), await createTenant(server.services, server.url, 'Reuse B')];
});
afterAll(() => server.close());

let nextId = 1;
async function call(key: string, name: string, args: Record<string, unknown>) {
  const response = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as { result: { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, unknown> } };
  return body.result;
}

describe('MCP callers', () => {
  it('answers each caller as itself when many callers with the same scopes call at once', async () => {
    const words = ['quokkareuse', 'narwhalreuse'];
    for (const [i, tenant] of tenants.entries()) {
      // A tool with a body (handed to the route as text, never through a stream).
      const saved = await call(tenant.owner.key, 'postMemory', { content: `The ${words[i]} fact of tenant ${i}`, tags: ['reuse'] });
      expect(saved.isError).toBeUndefined();
      expect(saved.structuredContent).toMatchObject({ content: `The ${words[i]} fact of tenant ${i}`, source: 'mcp', tags: ['reuse'] });
      // The text content is the JSON of the structured content.
      expect(JSON.parse(saved.content[0]!.text)).toEqual(saved.structuredContent);
    }
    const calls = Array.from({ length: 40 }, (_, n) => n % 2);
    const results = await Promise.all(
      calls.map((i) => call(tenants[i]!.owner.key, 'getMemorySearch', { q: `${words[0]} ${words[1]}`, limit: 5 }).then((result) => ({ i, result }))),
    );
    for (const { i, result } of results) {
      const found = (result.structuredContent as { results: { content: string }[] }).results.map((memory) => memory.content);
      expect(found).toEqual([`The ${words[i]} fact of tenant ${i}`]);
    }
  });

  it('answers a route error as an isError result with the problem, and a 2025 initialize still works', async () => {
    const missing = await call(tenants[0]!.owner.key, 'getMemoryById', { id: 'mem_doesnotexist0000000000' });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({ status: 404 });
    const init = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenants[0]!.owner.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: nextId++,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'reuse-test', version: '1' } },
      }),
    });
    expect(((await init.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe('2025-06-18');
  });

  it('runs a tool call through the HTTP middleware once: one request log line, for /mcp', async () => {
    lines.length = 0;
    for (let n = 0; n < 3; n++) await call(tenants[1]!.owner.key, 'getMemorySearch', { q: 'narwhalreuse' });
    const requests = lines.filter((line) => line.msg === 'request');
    expect(requests.map((line) => line.route)).toEqual(['/mcp', '/mcp', '/mcp']);
  });

  it('refuses a 2025 request the way the SDK transport does', async () => {
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenants[0]!.owner.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      });
    // A memory of this test's own, found by the request the SDK does serve at the end.
    expect((await call(tenants[0]!.owner.key, 'postMemory', { content: 'The wombatrefusal fact' })).isError).toBeUndefined();
    const search = { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: 'getMemorySearch', arguments: { q: 'wombatrefusal' } } };
    expect((await post({ accept: 'application/json' }, search)).status).toBe(406);
    expect((await post({ 'content-type': 'text/plain' }, search)).status).toBe(415);
    const version = await post({ 'mcp-protocol-version': '1999-01-01' }, search);
    expect(version.status).toBe(400);
    expect(await version.text()).toMatch(/Unsupported protocol version/);
    // A notification is accepted without an answer; a malformed message is the SDK's error.
    expect((await post({}, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    // So is a posted response (no request of the server's awaits one).
    expect((await post({}, { jsonrpc: '2.0', id: nextId++, result: {} })).status).toBe(202);
    const malformed = await post({}, { jsonrpc: '2.0', id: nextId++, method: 7 });
    expect(malformed.status).toBe(400);
    // A supported version in the header is served like none.
    const named = await post({ 'mcp-protocol-version': '2025-06-18' }, search);
    expect(named.status).toBe(200);
    expect(((await named.json()) as { result: { structuredContent: { results: unknown[] } } }).result.structuredContent.results).toHaveLength(1);
  });

  it('answers an unknown tool and a bad argument as the protocol says', async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenants[0]!.owner.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'unknown-1', method: 'tools/call', params: { name: 'noSuchTool', arguments: {} } }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: 'unknown-1', error: { code: -32602 } });
    const bad = await call(tenants[0]!.owner.key, 'getMemorySearch', { q: 5 });
    expect(bad.isError).toBe(true);
    expect(JSON.parse(bad.content[0]!.text)).toEqual(bad.structuredContent);
  });

  it('refuses a header argument no HTTP header can carry as a bad argument, not an internal error', async () => {
    for (const value of ['ключ', 'a\r\nx-injected: 1']) {
      const result = await call(tenants[0]!.owner.key, 'deleteMemoryById', { id: 'mem_doesnotexist0000000000', if_match: value });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ status: 400, errors: [{ path: 'if_match' }] });
    }
  });
});
