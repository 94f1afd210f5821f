import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant } from './support/tenants';

/** The revisions and clients the one POST /mcp serves, and the tool surface a model reads. */
let server: TestServer;
let tenant: TestTenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.services, server.url);
});
afterAll(() => server.close());

const MODERN = '2026-07-28';
const META = (capabilities: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': capabilities,
  'io.modelcontextprotocol/clientInfo': { name: 'curl', version: '0' },
});

/** A raw 2026-07-28 request: the `_meta` envelope in the body, the method (and name) in headers too. */
function modern(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}, id: number | string = 1) {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${tenant.owner.key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...name,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META() } }),
  });
}

describe('MCP 2026-07-28 over plain HTTP', () => {
  it('answers server/discover with the revision, the tools capability and the instructions', async () => {
    const res = await modern('server/discover');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const body = (await res.json()) as { result: Record<string, unknown> };
    expect(body.result).toMatchObject({ supportedVersions: expect.arrayContaining([MODERN]), capabilities: { tools: {} } });
    expect(JSON.stringify(body.result)).toContain('getMemorySearch');
  });

  it('lists tools with cache hints, private to the caller', async () => {
    const body = (await (await modern('tools/list')).json()) as { result: { tools: { name: string }[]; ttlMs: number; cacheScope: string } };
    expect(body.result.cacheScope).toBe('private');
    expect(body.result.ttlMs).toBeGreaterThan(0);
    expect(body.result.tools.map((t) => t.name)).toContain('postMemory');

    // The list is built once per scope set and shared: a 2025 answer after it has no hints.
    const legacy = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.owner.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    const legacyResult = ((await legacy.json()) as { result: Record<string, unknown> }).result;
    expect(legacyResult).not.toHaveProperty('ttlMs');
    expect(legacyResult.tools).toEqual(body.result.tools);
  });

  it('calls a tool as the caller, answering JSON (not an SSE stream)', async () => {
    const res = await modern('tools/call', { name: 'postMemory', arguments: { content: 'modern marmot' } });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as {
      result: { structuredContent: { id: string; source: string } };
    };
    expect(body.result.structuredContent).toMatchObject({ id: expect.stringMatching(/^mem_/), source: 'mcp' });
    expect((await tenant.owner.api.get(`/v1/memory/${body.result.structuredContent.id}`)).status).toBe(200);
  });

  it('refuses what the revision refuses: an Mcp-Name other than the tool\'s, or none, and a progress token its schema does not take', async () => {
    const post = (meta: Record<string, unknown>, id: string, headers: Record<string, string | undefined> = {}) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: Object.fromEntries(
          Object.entries({
            authorization: `Bearer ${tenant.owner.key}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': MODERN,
            'mcp-method': 'tools/call',
            'mcp-name': 'getMemorySearch',
            ...headers,
          }).filter((entry): entry is [string, string] => entry[1] !== undefined),
        ),
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'getMemorySearch', arguments: { q: 'x' }, _meta: { ...META(), ...meta } } }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as unknown }));
    expect(await post({}, 'modern-ok')).toMatchObject({ status: 200, body: { id: 'modern-ok', result: { resultType: 'complete' } } });
    for (const name of ['getMemory', undefined]) {
      expect(await post({}, 'modern-name', { 'mcp-name': name })).toMatchObject({ status: 400, body: { id: 'modern-name', error: { code: expect.any(Number) } } });
    }
    expect(await post({ progressToken: 1.5 }, 'modern-token')).toMatchObject({ body: { id: 'modern-token', error: { code: expect.any(Number) } } });
  });

  it('answers errors with the request id: unknown tool, header mismatch, unsupported revision', async () => {
    const unknown = (await (await modern('tools/call', { name: 'postAdminOrg', arguments: {} }, {}, 'req-7')).json()) as Record<string, unknown>;
    expect(unknown).toMatchObject({ id: 'req-7', error: { code: -32602, message: expect.stringContaining('Unknown tool') } });

    const mismatch = await modern('tools/list', {}, { 'mcp-method': 'tools/call' }, 8);
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toMatchObject({ id: 8, error: { code: expect.any(Number) } });

    const future = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.owner.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: { ...META(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } }),
    });
    const unsupported = (await future.json()) as { id: number; error: { code: number; data: { supported: string[] } } };
    expect(unsupported).toMatchObject({ id: 9, error: { code: -32022 } });
    expect(JSON.stringify(unsupported.error.data)).toContain(MODERN);
  });

  it('still needs a key (401 + WWW-Authenticate) and an allowed Origin', async () => {
    const anonymous = await modern('tools/list', {}, { authorization: '' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await modern('tools/list', {}, { origin: 'http://evil.example' })).status).toBe(403);
  });
});

describe('official clients', () => {
  const headers = () => ({ Authorization: `Bearer ${tenant.owner.key}` });

  it('an SDK v1 client (1.32.2, 2025-11-25) connects, lists and calls', async () => {
    const client = new ClientV1({ name: 'v1', version: '1' });
    await client.connect(new TransportV1(new URL(`${server.url}/mcp`), { requestInit: { headers: headers() } }));
    expect(client.getInstructions()).toContain('getMemorySearch');
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('getMemorySearch');
    const result = await client.callTool({ name: 'getMemorySearch', arguments: { q: 'marmot' } });
    expect(result.isError).toBeFalsy();
    await client.close();
  });

  for (const mode of ['auto', 'legacy'] as const) {
    it(`a v2 client (negotiation: ${mode}) connects, lists and calls`, async () => {
      const client = new ClientV2({ name: 'v2', version: '2' }, { versionNegotiation: { mode } });
      await client.connect(new TransportV2(new URL(`${server.url}/mcp`), { requestInit: { headers: headers() } }));
      expect(client.getNegotiatedProtocolVersion()).toBe(mode === 'auto' ? MODERN : '2025-11-25');
      expect(client.getInstructions()).toContain('postMemory');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['deleteMemoryById', 'getMemory', 'getMemoryById', 'getMemoryHistory', 'getMemorySearch', 'patchMemoryById', 'postMemory']);
      const saved = await client.callTool({ name: 'postMemory', arguments: { content: `v2 ${mode} ocelot` } });
      expect(saved.structuredContent).toMatchObject({ source: 'mcp' });
      const failed = await client.callTool({ name: 'getMemoryById', arguments: { id: 'mem_missing' } });
      expect(failed.isError).toBe(true);
      await client.close();
    });
  }
});

/** What the MCP Inspector's portability check flags (its `--strict` report), found by walking a schema. */
function portabilityProblems(schema: unknown, path: string, keyword?: string): string[] {
  if (typeof schema === 'boolean') return keyword === 'additionalProperties' || keyword === 'unevaluatedProperties' ? [] : [`${path}: bare boolean schema`];
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return [];
  const node = schema as Record<string, unknown>;
  const problems: string[] = [];
  if (Array.isArray(node.type)) problems.push(`${path}: type is an array ${JSON.stringify(node.type)}`);
  if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) problems.push(`${path}: remote $ref`);
  const constraining = ['type', 'enum', 'const', 'required', 'properties', 'items', 'anyOf', 'oneOf', 'allOf', 'not', '$ref', 'minLength', 'maxLength', 'minimum', 'maximum', 'pattern', 'format', 'additionalProperties', 'maxItems', 'minItems'];
  if (keyword !== 'not' && !Object.keys(node).some((key) => constraining.includes(key))) problems.push(`${path}: constrains nothing`);
  for (const key of ['properties', 'patternProperties', '$defs']) {
    for (const [name, sub] of Object.entries((node[key] ?? {}) as Record<string, unknown>)) problems.push(...portabilityProblems(sub, `${path}.${name}`, key));
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((sub, i) => problems.push(...portabilityProblems(sub, `${path}.${key}[${i}]`, key)));
  }
  for (const key of ['items', 'additionalProperties', 'not', 'contains']) if (key in node) problems.push(...portabilityProblems(node[key], `${path}.${key}`, key));
  return problems;
}

describe('the tool surface a model reads', () => {
  const listAll = async (env: Record<string, string> = {}) => {
    const own = Object.keys(env).length > 0 ? await startTestServer({ env }) : server;
    const client = new ClientV1({ name: 'surface', version: '1' });
    await client.connect(new TransportV1(new URL(`${own.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${tenant.owner.key}` } } }));
    const result = await client.listTools();
    await client.close();
    if (own !== server) await own.close();
    return result;
  };

  it('the default tools/list answer fits in 12 KB of JSON', async () => {
    const answer = await listAll();
    expect(JSON.stringify(answer).length).toBeLessThanOrEqual(12 * 1024);
  });

  it('every schema of every tool (workstream tools included) is portable: 0 Inspector warnings', async () => {
    const { tools } = await listAll({ MCP_TOOL_TAGS: 'Memory,Workstreams,Workstream changes' });
    expect(tools.length).toBeGreaterThan(10);
    const problems = tools.flatMap((tool) => [
      ...portabilityProblems(tool.inputSchema, `${tool.name}.inputSchema`),
      ...(tool.outputSchema ? portabilityProblems(tool.outputSchema, `${tool.name}.outputSchema`) : []),
    ]);
    expect(problems).toEqual([]);
  });

  it('every tool has a title and a description that says when to use it', async () => {
    const { tools } = await listAll({ MCP_TOOL_TAGS: 'Memory,Workstreams' });
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description!.length, tool.name).toBeGreaterThan(80);
      expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
    }
  });

  it('a tool still takes null where the route does, though its schema does not say so', async () => {
    const client = new ClientV1({ name: 'nulls', version: '1' });
    await client.connect(new TransportV1(new URL(`${server.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${tenant.owner.key}` } } }));
    const saved = await client.callTool({ name: 'postMemory', arguments: { content: 'null-tolerant newt', contexts: [{ snippet: 's', citation: null, message_id: null }] } });
    expect(saved.isError).toBeFalsy();
    expect(saved.structuredContent).toMatchObject({ contexts: [{ snippet: 's', citation: null, message_id: null }] });
    await client.close();
  });
});

describe('memories as resources, and the recall prompt', () => {
  const connectAs = async (key: string) => {
    const client = new ClientV1({ name: 'resources', version: '1' });
    await client.connect(new TransportV1(new URL(`${server.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    return client;
  };

  it('lists and reads the caller’s memories, and never another tenant’s', async () => {
    const saved = (await tenant.owner.api.unchecked.post('/v1/memory', { body: { content: 'Resources reveal the resourceful raccoon', tags: ['fauna'], contexts: [{ snippet: 'zoo notes' }] } })).body;
    const stranger = (await createTenant(server.services, server.url)).owner;
    const theirs = (await stranger.api.unchecked.post('/v1/memory', { body: { content: 'stranger raccoon secret' } })).body.id as string;
    const client = await connectAs(tenant.owner.key);

    const { resources } = await client.listResources();
    expect(resources).toContainEqual(expect.objectContaining({ uri: `memory-bank://memories/${saved.id}`, name: saved.id, title: 'Resources reveal the resourceful raccoon' }));
    expect(JSON.stringify(resources)).not.toContain(theirs);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'memory-bank://memories/{id}' })]);

    const read = await client.readResource({ uri: `memory-bank://memories/${saved.id}` });
    const text = (read.contents[0] as { text: string }).text;
    expect(text).toContain('Resources reveal the resourceful raccoon');
    expect(text).toContain(saved.id);
    expect(text).toContain('zoo notes');

    for (const uri of [`memory-bank://memories/${theirs}`, 'memory-bank://memories/mem_missing', 'file:///etc/passwd']) {
      await expect(client.readResource({ uri }), uri).rejects.toThrow(/-32602|not found/i);
    }
    await client.close();
  });

  it('the recall prompt brings the memories about a topic, cited by id', async () => {
    const saved = (await tenant.owner.api.unchecked.post('/v1/memory', { body: { content: 'Deploys to production happen on Tuesdays via the pangolin pipeline' } })).body;
    const client = await connectAs(tenant.owner.key);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['recall']);
    const prompt = await client.getPrompt({ name: 'recall', arguments: { topic: 'pangolin' } });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain(saved.id);
    expect(text).toContain('Tuesdays');
    const none = await client.getPrompt({ name: 'recall', arguments: { topic: 'zzyzx' } });
    expect((none.messages[0]!.content as { text: string }).text).toContain('no memories');
    await client.close();
  });

  it('a key that cannot read memories is offered neither', async () => {
    const writer = await tenant.keyWithScopes(tenant.owner, ['memory:write']);
    const client = await connectAs(writer.key);
    expect(client.getServerCapabilities()).not.toHaveProperty('resources');
    expect(client.getServerCapabilities()).not.toHaveProperty('prompts');
    await client.close();
  });
});
