import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant } from './support/tenants';

/**
 * The MCP endpoint reuses its SDK servers between requests and runs a tool's route
 * in-process as the already authenticated caller. Neither may mix callers up, and a call
 * must not go through the HTTP middleware twice.
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

describe('MCP servers reused across requests', () => {
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
});
