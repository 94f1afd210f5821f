import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBearerProxy } from './support/bearer-proxy';
import { ensureNode22Tools, type Node22Tools } from './support/node22-tools';
import { startTestServer, type TestServer } from './support/server';
import { createTenant } from './support/tenants';

/**
 * The official MCP conformance suite against the real server, for the 2025-11-25 revision
 * (initialize handshake) and 2026-07-28 (stateless, `_meta` envelope). Every scenario of the
 * suite runs (`--suite all`); the expected-failures file of each revision lists the checks
 * that do not apply to a memory server, one per line with the reason, and the suite itself
 * fails the run when a listed check starts passing.
 */
const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
const expectedFailures = (revision: string) => fileURLToPath(new URL(`./fixtures/mcp-conformance/${revision}.yaml`, import.meta.url));

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

/** Runs a Node 22 tool; asynchronously, since the proxy lives in this process and must keep serving meanwhile. */
function runNode22(args: string[]): Promise<{ code: number | null; output: string; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(tools.node, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let stdout = '';
    child.stdout.on('data', (chunk) => ((output += chunk), (stdout += chunk)));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output, stdout }));
  });
}

function runSuite(revision: string) {
  return runNode22([tools.conformance, 'server', '--url', `${proxy.url}/mcp`, '--suite', 'all', '--spec-version', revision, '--expected-failures', expectedFailures(revision), '--timeout', '10000']);
}

describe('MCP conformance suite', () => {
  for (const revision of REVISIONS) {
    it(`passes every applicable check at ${revision}`, async () => {
      const { code, output } = await runSuite(revision);
      const summary = output.slice(output.indexOf('=== SUMMARY ==='));
      expect(code, summary).toBe(0);
      // The scenarios this server is about did run, and passed.
      const always = ['tools-list', 'resources-list', 'prompts-list', 'dns-rebinding-protection'];
      const perRevision = revision === '2026-07-28' ? ['server-stateless', 'http-header-validation', 'caching', 'sep-2164-resource-not-found'] : ['server-initialize', 'ping'];
      for (const scenario of [...always, ...perRevision]) {
        expect(summary, scenario).toMatch(new RegExp(`${scenario}: [1-9]\\d* passed`));
      }
    }, 90_000);
  }
});

describe('MCP Inspector CLI', () => {
  it('lists the tools with 0 schema portability warnings', async () => {
    const { code, output, stdout } = await runNode22([
      tools.inspector, '--cli', `${server.url}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${ownerKey}`, '--method', 'tools/list', '--strict',
    ]);
    expect(code, output).toBe(0);
    expect((JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toContain('getMemorySearch');
    expect(output).not.toMatch(/warning|error/i);
  }, 60_000);
});
