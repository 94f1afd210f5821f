import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant, type TestUser } from './support/tenants';

let server: TestServer;
let tenant: TestTenant;

async function connect(key: string | null, base = server.url): Promise<Client> {
  const client = new Client({ name: 'memory-bank-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: key ? { headers: { Authorization: `Bearer ${key}` } } : {},
  });
  await client.connect(transport);
  return client;
}

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.services, server.url);
});
afterAll(() => server.close());

describe('MCP tools/list', () => {
  it('lists one tool per allowed operation (memory tools by default), sorted, with schemas and annotations', async () => {
    const client = await connect(tenant.owner.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['deleteMemoryById', 'getMemory', 'getMemoryById', 'getMemoryHistory', 'getMemorySearch', 'patchMemoryById', 'postMemory']);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));

    expect(byName.postMemory!.inputSchema).toMatchObject({
      type: 'object',
      required: ['content'],
      properties: {
        content: { type: 'string', maxLength: 8000 },
        tags: { type: 'array', maxItems: 32 },
        contexts: { type: 'array', items: { type: 'object', properties: { snippet: { type: 'string' } }, required: ['snippet'] } },
      },
    });
    expect(JSON.stringify(tools)).not.toContain('$ref');
    expect(byName.getMemorySearch!.inputSchema).toMatchObject({
      required: ['q'],
      properties: { q: { type: 'string', description: expect.any(String) }, limit: { type: 'integer', maximum: 50 }, tag: { type: 'string' } },
    });
    expect(byName.patchMemoryById!.inputSchema.required).toEqual(['id']);
    expect(Object.keys(byName.patchMemoryById!.inputSchema.properties!).sort()).toEqual(['content', 'expires_at', 'id', 'if_match', 'pinned', 'tags', 'ttl_seconds']);
    // Header parameters of the operation are arguments too, named as identifiers.
    expect(byName.postMemory!.inputSchema.properties).toMatchObject({ idempotency_key: { type: 'string', description: expect.stringContaining('retry') } });
    expect(byName.postMemory!.inputSchema.required).toEqual(['content']);
    expect(byName.getMemorySearch!.outputSchema).toMatchObject({ type: 'object', properties: { results: { type: 'array' } } });
    expect(byName.deleteMemoryById!.outputSchema).toBeUndefined();
    expect(byName.getMemorySearch!.description).toContain('Finds memories about a topic');
    expect(byName.getMemorySearch!.title).toBe('Search memories');
    expect(byName.getMemory!.title).toBe('List memories');

    expect(byName.getMemory!.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(byName.getMemoryById!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(byName.deleteMemoryById!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true, openWorldHint: false });
    expect(byName.postMemory!.annotations).toMatchObject({ destructiveHint: false, openWorldHint: false });
    expect(byName.patchMemoryById!.annotations).toMatchObject({ destructiveHint: false, openWorldHint: false });
    // Only deletes are destructive.
    expect(tools.filter((t) => t.annotations?.destructiveHint).map((t) => t.name)).toEqual(['deleteMemoryById']);
    await client.close();
  });

  it('is deterministic, and hides tools the key has no scope for', async () => {
    const a = await connect(tenant.owner.key);
    const b = await connect((await tenant.addMember('member')).key);
    expect(JSON.stringify((await a.listTools()).tools)).toBe(JSON.stringify((await b.listTools()).tools));
    const reader = await tenant.keyWithScopes(tenant.owner, ['memory:read']);
    const r = await connect(reader.key);
    expect((await r.listTools()).tools.map((t) => t.name)).toEqual(['getMemory', 'getMemoryById', 'getMemoryHistory', 'getMemorySearch']);
    const none = await connect((await tenant.keyWithScopes(tenant.owner, [])).key);
    expect((await none.listTools()).tools).toEqual([]);
    const call = await r.callTool({ name: 'postMemory', arguments: { content: 'x' } }).catch((error: Error) => error);
    expect(call).toBeInstanceOf(Error);
    for (const client of [a, b, r, none]) await client.close();
  });
});

describe('MCP tools/call', () => {
  let user: TestUser;
  let client: Client;
  beforeAll(async () => {
    user = await tenant.addMember('member');
    client = await connect(user.key);
  });
  afterAll(() => client.close());

  it('calls every tool successfully, with source "mcp" on saved memories', async () => {
    const created = await client.callTool({
      name: 'postMemory',
      arguments: { content: 'MCP saved the quokka fact', tags: ['mcp'], contexts: [{ snippet: 'from chat', origin: 'active_conversation' }] },
    });
    expect(created.isError).toBeFalsy();
    const memory = created.structuredContent as { id: string; source: string; content: string };
    expect(memory).toMatchObject({ id: expect.stringMatching(/^mem_/), source: 'mcp', content: 'MCP saved the quokka fact' });
    expect(JSON.parse((created.content as { text: string }[])[0]!.text)).toEqual(memory);

    const listed = await client.callTool({ name: 'getMemory', arguments: { limit: 5 } });
    expect((listed.structuredContent as { memories: { id: string }[] }).memories.map((m) => m.id)).toContain(memory.id);

    const found = await client.callTool({ name: 'getMemorySearch', arguments: { q: 'quokka' } });
    expect((found.structuredContent as { results: { id: string }[] }).results.map((r) => r.id)).toEqual([memory.id]);

    const read = await client.callTool({ name: 'getMemoryById', arguments: { id: memory.id } });
    expect(read.structuredContent).toMatchObject({ id: memory.id, tags: ['mcp'] });

    const patched = await client.callTool({ name: 'patchMemoryById', arguments: { id: memory.id, tags: ['mcp', 'edited'] } });
    expect(patched.structuredContent).toMatchObject({ id: memory.id, tags: ['mcp', 'edited'], content: 'MCP saved the quokka fact' });

    const deleted = await client.callTool({ name: 'deleteMemoryById', arguments: { id: memory.id } });
    expect(deleted.isError).toBeFalsy();
    expect(deleted.structuredContent).toBeUndefined();
    expect((deleted.content as { type: string; text: string }[])[0]).toMatchObject({ type: 'text', text: expect.stringContaining('204') });
    expect((await user.api.get(`/v1/memory/${memory.id}`)).status).toBe(404);
  });

  it('calls the workstream tools, when MCP_TOOL_TAGS turns them on', async () => {
    const withWorkstreams = await startTestServer({ env: { MCP_TOOL_TAGS: 'Memory,Workstreams' } });
    const client = await connect(user.key, withWorkstreams.url);
    const session = `mcp-${Date.now()}`;
    await user.api.post('/v1/hooks/claude-code', { body: { session_id: session, hook_event_name: 'SessionStart', source: 'startup' } });
    const hook = await user.api.unchecked.post('/v1/hooks/claude-code', {
      body: { session_id: session, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_use_id: 'toolu_mcp', tool_input: { command: 'make wallaby' }, tool_response: { stdout: 'ok' } },
    });
    const id = hook.body.workstream_id as string;
    const calls: [string, Record<string, unknown>, (result: Record<string, unknown>) => void][] = [
      ['getWorkstreams', {}, (r) => expect((r.workstreams as { id: string }[]).map((w) => w.id)).toContain(id)],
      ['getWorkstreamById', { id }, (r) => expect(r).toMatchObject({ id, event_count: 2 })],
      // A boolean, as the tool's schema says (an agent's natural `true`).
      ['getWorkstreamEvents', { id, include_lifecycle: true }, (r) => expect(r.events).toHaveLength(2)],
      ['getWorkstreamEvents', { id }, (r) => expect(r.events).toHaveLength(1)],
      ['getWorkstreamActions', { id }, (r) => expect(r.actions).toMatchObject([{ tool_use_id: 'toolu_mcp', outcome: 'success' }])],
      ['getWorkstreamsSearch', { q: 'wallaby' }, (r) => expect((r.results as { workstream_id: string }[])[0]?.workstream_id).toBe(id)],
    ];
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(calls.map(([name]) => name)));
    for (const [name, args, check] of calls) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBeFalsy();
      check(result.structuredContent as Record<string, unknown>);
    }
    await client.close();
    await withWorkstreams.close();
  });

  it('answers bad arguments with isError naming the field, before calling the route', async () => {
    const missing = await client.callTool({ name: 'postMemory', arguments: {} });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({ status: 400, errors: [{ path: 'content' }] });
    expect((missing.content as { text: string }[])[0]!.text).toContain('content');

    const wrongType = await client.callTool({ name: 'getMemorySearch', arguments: { q: 'x', limit: 'ten' } });
    expect(wrongType.isError).toBe(true);
    expect(wrongType.structuredContent).toMatchObject({ errors: [expect.objectContaining({ path: 'limit' })] });

    const tooBig = await client.callTool({ name: 'postMemory', arguments: { content: 'x'.repeat(8001) } });
    expect(tooBig.isError).toBe(true);
    expect(JSON.stringify(tooBig.structuredContent)).toContain('content');

    const nested = await client.callTool({ name: 'postMemory', arguments: { content: 'x', contexts: [{ snippet: 'ok' }, {}] } });
    expect(nested.structuredContent).toMatchObject({ errors: [expect.objectContaining({ path: 'contexts.1.snippet' })] });

    // The route's own limits still apply (trimmed content is empty).
    const blank = await client.callTool({ name: 'postMemory', arguments: { content: '   ' } });
    expect(blank.isError).toBe(true);
    expect(blank.structuredContent).toMatchObject({ status: 400, errors: [expect.objectContaining({ path: 'content' })] });
  });

  it("answers another tenant's id with a 404 isError, and never reveals it", async () => {
    const stranger = (await createTenant(server.services, server.url)).owner;
    const theirs = (await stranger.api.unchecked.post('/v1/memory', { body: { content: 'stranger secret' } })).body.id;
    for (const name of ['getMemoryById', 'deleteMemoryById']) {
      const result = await client.callTool({ name, arguments: { id: theirs } });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ status: 404, type: 'urn:memory-bank:problem:not_found' });
    }
    const patch = await client.callTool({ name: 'patchMemoryById', arguments: { id: theirs, content: 'pwned' } });
    expect(patch.structuredContent).toMatchObject({ status: 404 });
    expect((await stranger.api.unchecked.get(`/v1/memory/${theirs}`)).body.content).toBe('stranger secret');
  });

  it('postMemory passes idempotency_key through as the Idempotency-Key header: a retried save saves once', async () => {
    const args = { content: 'MCP retried the wombat fact', idempotency_key: `mcp-${Date.now()}` };
    const first = await client.callTool({ name: 'postMemory', arguments: args });
    const again = await client.callTool({ name: 'postMemory', arguments: args });
    expect(first.isError).toBeFalsy();
    expect((again.structuredContent as { id: string }).id).toBe((first.structuredContent as { id: string }).id);
    const other = await client.callTool({ name: 'postMemory', arguments: { ...args, content: 'another fact' } });
    expect(other).toMatchObject({ isError: true, structuredContent: { status: 422 } });
    const found = await user.api.unchecked.get('/v1/memory/search?q=wombat');
    expect(found.body.results).toHaveLength(1);
    // And a REST retry with the same key and body replays the same memory.
    const rest = await user.api.unchecked.post('/v1/memory', { body: { content: args.content }, headers: { 'idempotency-key': args.idempotency_key } });
    expect(rest.headers.get('idempotent-replayed')).toBe('true');
    expect(rest.body.id).toBe((first.structuredContent as { id: string }).id);
  });

  it('rejects an unknown tool', async () => {
    await expect(client.callTool({ name: 'postAdminOrg', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it('returns the same data as REST (parity)', async () => {
    await user.api.post('/v1/memory', { body: { content: 'parity platypus one', tags: ['p'] } });
    await user.api.post('/v1/memory', { body: { content: 'parity platypus two' } });
    const rest = await user.api.get('/v1/memory/search?q=platypus&limit=5');
    const viaMcp = await client.callTool({ name: 'getMemorySearch', arguments: { q: 'platypus', limit: 5 } });
    expect(viaMcp.structuredContent).toEqual(rest.body);
    const restList = await user.api.unchecked.get('/v1/memory?limit=3');
    const mcpList = await client.callTool({ name: 'getMemory', arguments: { limit: 3 } });
    expect(mcpList.structuredContent).toEqual(restList.body);
    const id = restList.body.memories[0].id;
    expect((await client.callTool({ name: 'getMemoryById', arguments: { id } })).structuredContent).toEqual((await user.api.get(`/v1/memory/${id}`)).body);
  });
});

describe('MCP over HTTP', () => {
  const rpc = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });

  it('answers plain JSON-RPC with JSON and no session id', async () => {
    const auth = { authorization: `Bearer ${tenant.owner.key}` };
    const init = await rpc(
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '0' } } },
      auth,
    );
    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toMatch(/application\/json/);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    expect(await init.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'memory-bank' }, capabilities: { tools: {} } } });

    const list = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, auth);
    expect(((await list.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(7);

    const call = await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'getMemorySearch', arguments: { q: 'anything' } } }, auth);
    expect(await call.json()).toMatchObject({ id: 3, result: { structuredContent: { results: expect.any(Array) } } });
  });

  it('answers a body that is not JSON with a parse error, and JSON that is not JSON-RPC with an invalid request', async () => {
    const headers = { authorization: `Bearer ${tenant.owner.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const answers: [string, number][] = [['{"jsonrpc": "2.0", "id": 1, "method": ', -32700], ['', -32700], ['null', -32600], ['42', -32600]];
    for (const [body, code] of answers) {
      const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers, body });
      expect(res.status, body).toBe(400);
      expect(await res.json(), body).toMatchObject({ jsonrpc: '2.0', error: { code } });
    }
    // The same connection still serves a good request afterwards.
    const ok = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { authorization: headers.authorization });
    expect(ok.status).toBe(200);
  });

  it('needs a valid key: 401 with WWW-Authenticate at the HTTP level', async () => {
    for (const headers of [{}, { authorization: 'Bearer mbk_' + 'x'.repeat(40) }] as Record<string, string>[]) {
      const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    await expect(connect(null)).rejects.toThrow();
  });

  it('refuses origins outside the allow-list, accepts listed ones and requests without Origin', async () => {
    const auth = { authorization: `Bearer ${tenant.owner.key}` };
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect((await rpc(list, { ...auth, origin: 'http://evil.example' })).status).toBe(403);
    expect((await rpc(list, { ...auth, origin: 'null' })).status).toBe(403);
    expect((await rpc(list, { ...auth, origin: 'http://localhost:6274' })).status).toBe(200);
    expect((await rpc(list, auth)).status).toBe(200);
  });

  it('answers GET and DELETE with 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${server.url}/mcp`, { method, headers: { authorization: `Bearer ${tenant.owner.key}`, accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('serves concurrent writes from many agents without losing one', async () => {
    const clients = await Promise.all(Array.from({ length: 8 }, () => connect(tenant.owner.key)));
    const results = await Promise.all(
      Array.from({ length: 64 }, (_, i) => clients[i % clients.length]!.callTool({ name: 'postMemory', arguments: { content: `concurrent wombat ${i}` } })),
    );
    expect(results.every((r) => !r.isError)).toBe(true);
    const ids = new Set(results.map((r) => (r.structuredContent as { id: string }).id));
    expect(ids.size).toBe(64);
    const found = await tenant.owner.api.unchecked.get('/v1/memory/search?q=wombat&limit=50');
    expect(found.body.results).toHaveLength(50);
    for (const client of clients) await client.close();
  });
});
