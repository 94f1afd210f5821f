import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, newSessionId } from './support/hooks';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant, type TestUser } from './support/tenants';
import { bodyOf, expectStatus } from './support/http';

let server: TestServer;
let org: TestTenant;
let other: TestTenant;

// Built at run time so no scanner mistakes this file for a leak.
const anthropicKey = (n: number): string => `sk-ant-api03-${'Qx7'.repeat(31)}${String(n).padStart(4, '0')}AA`;
const MARKER = '[REDACTED:anthropic_key]';

beforeAll(async () => {
  server = await startTestServer();
  org = await createTenant(server.services, server.url, 'Redacting org');
  other = await createTenant(server.services, server.url, 'Other org');
});
afterAll(() => server.close());

/** Every stored column of a memory and its contexts, as the database holds them. */
async function stored(memoryId: string): Promise<string> {
  const [memories] = await server.database.pool.query('SELECT * FROM memory WHERE id = ?', [memoryId]);
  const [contexts] = await server.database.pool.query('SELECT * FROM memory_context WHERE memory_id = ?', [memoryId]);
  expect((memories as unknown[]).length).toBe(1);
  return JSON.stringify([memories, contexts]);
}

async function mcpClient(user: TestUser): Promise<Client> {
  const client = new Client({ name: 'memory-bank-tests', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${user.key}` } } }),
  );
  return client;
}

function memoryWithKeys(first: number) {
  return {
    content: `The deploy bot uses ${anthropicKey(first)} for summaries`,
    tags: ['deploy'],
    contexts: [{ snippet: `ANTHROPIC_API_KEY=${anthropicKey(first + 1)}`, citation: { url: 'https://chat.example.com/c/1', note: anthropicKey(first + 2) } }],
  };
}

async function setRedaction(user: TestUser, on: boolean) {
  const res = await user.api.patch('/v1/org', { body: { redact_memory_secrets: on } });
  expectStatus(res, 200);
  expect(res.body).toMatchObject({ id: user.orgId, redact_memory_secrets: on });
}

describe('secrets in memories', () => {
  it('are redacted on save and update over REST, and the answer says how many', async () => {
    const saved = await org.owner.api.post('/v1/memory', { body: memoryWithKeys(1) });
    expectStatus(saved, 201);
    expect(saved.body.redacted).toBe(3);
    expect(saved.body.content).toBe(`The deploy bot uses ${MARKER} for summaries`);
    expect(saved.body.contexts[0]).toMatchObject({ snippet: `ANTHROPIC_API_KEY=${MARKER}`, citation: { url: 'https://chat.example.com/c/1', note: MARKER } });
    const row = await stored(saved.body.id);
    expect(row).not.toContain('sk-ant-');
    expect(row).toContain(MARKER);

    const updated = await org.owner.api.patch(`/v1/memory/${saved.body.id}`, { body: { content: `rotated to ${anthropicKey(4)}` } });
    expectStatus(updated, 200);
    expect(updated.body).toMatchObject({ content: `rotated to ${MARKER}`, redacted: 1 });
    expect(await stored(saved.body.id)).not.toContain('sk-ant-');

    const tagsOnly = await org.owner.api.patch(`/v1/memory/${saved.body.id}`, { body: { tags: ['x'] } });
    expectStatus(tagsOnly, 200);
    expect(tagsOnly.body.redacted).toBe(0);
    const clean = await org.owner.api.post('/v1/memory', { body: { content: 'nothing secret here' } });
    expect(clean.body).toMatchObject({ content: 'nothing secret here', redacted: 0 });
  });

  it('are redacted when an agent saves over MCP', async () => {
    const client = await mcpClient(org.owner);
    const created = await client.callTool({ name: 'postMemory', arguments: memoryWithKeys(10) });
    expect(created.isError).toBeFalsy();
    const memory = created.structuredContent as { id: string; content: string; redacted: number };
    expect(memory).toMatchObject({ content: `The deploy bot uses ${MARKER} for summaries`, redacted: 3 });
    expect(JSON.stringify(created)).not.toContain('sk-ant-');
    expect(await stored(memory.id)).not.toContain('sk-ant-');

    const patched = await client.callTool({ name: 'patchMemoryById', arguments: { id: memory.id, content: `now ${anthropicKey(13)}` } });
    expect(patched.structuredContent).toMatchObject({ content: `now ${MARKER}`, redacted: 1 });
    expect(await stored(memory.id)).not.toContain('sk-ant-');
    await client.close();
  });

  it('are redacted when an event is remembered with content of its own', async () => {
    const session = newSessionId();
    const hook = await org.owner.api.post('/v1/hooks/generic', { body: fixture('generic', 'tool-result', { session_id: session }) });
    expectStatus(hook, 202);
    const remembered = await org.owner.api.post(`/v1/workstreams/${hook.body.workstream_id}/events/1/remember`, {
      body: { content: `the summary key is ${anthropicKey(20)}` },
    });
    expectStatus(remembered, 201);
    expect(remembered.body).toMatchObject({ content: `the summary key is ${MARKER}`, redacted: 1 });
    expect(await stored(remembered.body.id)).not.toContain('sk-ant-');
  });

  it('are stored verbatim once an admin turns redaction off for the org, and that is audited', async () => {
    const member = await org.addMember('member');
    const denied = await member.api.patch('/v1/org', { body: { redact_memory_secrets: false } });
    expectStatus(denied, 403);
    expect((await org.owner.api.get('/v1/org')).body).toMatchObject({ id: org.orgId, redact_memory_secrets: true });

    await setRedaction(org.owner, false);
    const audit = await org.owner.api.get('/v1/admin/audit?action=org.update');
    expectStatus(audit, 200);
    expect(audit.body.events[0]).toMatchObject({
      action: 'org.update',
      actor: { type: 'user', user_id: org.owner.userId, key_id: org.owner.keyId },
      target: { type: 'org', id: org.orgId },
      counts: { redact_memory_secrets: 0 },
    });
    // Setting the value it already has changes nothing and records nothing.
    await setRedaction(org.owner, false);
    expect(bodyOf(await org.owner.api.get('/v1/admin/audit?action=org.update'), 200).events).toHaveLength(1);

    const rest = await member.api.post('/v1/memory', { body: memoryWithKeys(30) });
    expectStatus(rest, 201);
    expect(rest.body).toMatchObject({ content: `The deploy bot uses ${anthropicKey(30)} for summaries`, redacted: 0 });
    expect(await stored(rest.body.id)).toContain(anthropicKey(32));

    const client = await mcpClient(member);
    const created = await client.callTool({ name: 'postMemory', arguments: { content: `verbatim ${anthropicKey(33)}` } });
    const memory = created.structuredContent as { id: string; content: string; redacted: number };
    expect(memory).toMatchObject({ content: `verbatim ${anthropicKey(33)}`, redacted: 0 });
    expect(await stored(memory.id)).toContain(anthropicKey(33));
    await client.close();

    // Another org keeps its own setting.
    const elsewhere = await other.owner.api.post('/v1/memory', { body: { content: `other org ${anthropicKey(34)}` } });
    expect(elsewhere.body).toMatchObject({ content: `other org ${MARKER}`, redacted: 1 });

    await setRedaction(org.owner, true);
    const events = bodyOf(await org.owner.api.get('/v1/admin/audit?action=org.update'), 200).events;
    expect(events.map((event) => event.counts?.redact_memory_secrets)).toEqual([1, 0]);
    const again = await member.api.post('/v1/memory', { body: { content: `redacted again ${anthropicKey(35)}` } });
    expect(again.body).toMatchObject({ content: `redacted again ${MARKER}`, redacted: 1 });
  });

  it('rejects an unknown or missing setting', async () => {
    expect((await org.owner.api.unchecked.patch('/v1/org', { body: { redact_memory_secrets: 'no' } })).status).toBe(400);
    expect((await org.owner.api.unchecked.patch('/v1/org', { body: { name: 'renamed' } })).status).toBe(400);
  });
});
