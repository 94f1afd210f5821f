import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBearerProxy } from './support/bearer-proxy';
import { expectEveryApplicableCheck, REVISIONS, runNode22, runServerSuite } from './support/mcp-conformance';
import { ensureNode22Tools, type Node22Tools } from './support/node22-tools';
import { startTestServer, type TestServer } from './support/server';
import { createTenant } from './support/tenants';

/**
 * The official MCP conformance suite against the real server (support/mcp-conformance.ts:
 * every scenario of both revisions, with an expected-failures file per revision).
 */
let tools: Node22Tools;
let server: TestServer;
let ownerKey: string;
let proxy: Awaited<ReturnType<typeof startBearerProxy>>;

beforeAll(async () => {
  tools = await ensureNode22Tools();
  server = await startTestServer();
  const tenant = await createTenant(server.services, server.url);
  ownerKey = tenant.owner.key;
  // One memory, so resources/list has an entry and resources/read is exercised too.
  await tenant.owner.api.post('/v1/memory', { body: { content: 'The conformance suite runs against this memory server.' } });
  // The suite cannot send Authorization; the proxy adds the owner's key.
  proxy = await startBearerProxy(server.url, tenant.owner.key);
}, 240_000);
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

describe('MCP conformance suite', () => {
  for (const revision of REVISIONS) {
    it(`passes every applicable check at ${revision}`, async () => {
      expectEveryApplicableCheck(revision, await runServerSuite(tools, `${proxy.url}/mcp`, revision));
    }, 90_000);
  }
});

describe('MCP Inspector CLI', () => {
  it('lists the tools with 0 schema portability warnings', async () => {
    const { code, output, stdout } = await runNode22(tools, [
      tools.inspector, '--cli', `${server.url}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${ownerKey}`, '--method', 'tools/list', '--strict',
    ]);
    expect(code, output).toBe(0);
    expect((JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toContain('getMemorySearch');
    expect(output).not.toMatch(/warning|error/i);
  }, 60_000);
});
