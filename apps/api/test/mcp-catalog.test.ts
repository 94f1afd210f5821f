import { z } from '@hono/zod-openapi';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { problemResponses } from '../src/http/problems';
import { authedRoute } from '../src/http/route';
import { buildToolCatalog, type OpenApiDocument } from '../src/mcp/openapi-tools';
import { startTestServer, type TestServer } from './support/server';
import { createTenant } from './support/tenants';

const servers: TestServer[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

/** A throw-away operation, defined like any route of the service. */
function echoRoute(extra: Record<string, unknown> = {}) {
  return authedRoute(['memory:read'], {
    method: 'post',
    path: '/v1/echo/{word}',
    operationId: 'postEcho',
    tags: ['Memory'],
    summary: 'Echo',
    description: 'Says it back.',
    request: {
      params: z.object({ word: z.string().openapi({ param: { name: 'word', in: 'path' } }) }),
      query: z.object({ times: z.coerce.number().int().min(1).max(3).default(1) }),
      body: { required: true, content: { 'application/json': { schema: z.object({ suffix: z.string().max(5) }) } } },
    },
    responses: {
      200: { description: 'Echoed.', content: { 'application/json': { schema: z.object({ echo: z.string(), user_id: z.string() }) } } },
      ...problemResponses(400, 401, 403),
    },
    ...extra,
  });
}

async function toolsOf(server: TestServer) {
  const tenant = await createTenant(server.services, server.url);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${tenant.owner.key}` } } }));
  return { client, tenant };
}

describe('tools come from the OpenAPI document', () => {
  it('a new zod-openapi route becomes a tool with no MCP code, and runs through the route', async () => {
    const server = await startTestServer({
      extend: (app) =>
        app.openapi(echoRoute(), (c) => {
          const { word } = c.req.valid('param');
          const { times } = c.req.valid('query');
          return c.json({ echo: `${word}${c.req.valid('json').suffix}`.repeat(times), user_id: c.get('principal').scope.userId }, 200);
        }),
    });
    servers.push(server);
    const { client, tenant } = await toolsOf(server);
    const tool = (await client.listTools()).tools.find((t) => t.name === 'postEcho');
    expect(tool).toMatchObject({
      title: 'Echo',
      description: 'Says it back.',
      inputSchema: { type: 'object', required: ['word', 'suffix'], properties: { word: { type: 'string' }, times: { type: 'integer' }, suffix: { maxLength: 5 } } },
      annotations: { destructiveHint: false, openWorldHint: false },
    });
    const result = await client.callTool({ name: 'postEcho', arguments: { word: 'hé/llo', times: 2, suffix: '!' } });
    expect(result.structuredContent).toEqual({ echo: 'hé/llo!hé/llo!', user_id: tenant.owner.userId });
    await client.close();
  });

  it('x-mcp: false keeps a route out of the tools', async () => {
    const server = await startTestServer({ extend: (app) => app.openapi(echoRoute({ 'x-mcp': false }), (c) => c.json({ echo: '', user_id: '' }, 200)) });
    servers.push(server);
    const { client } = await toolsOf(server);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('postEcho');
    expect(names).toContain('postMemory');
    await client.close();
  });

  it('never exposes operator or key-management operations, even when their tags are allowed', async () => {
    const server = await startTestServer({ env: { MCP_TOOL_TAGS: 'Memory,API keys,Operator,Org' } });
    servers.push(server);
    const { client } = await toolsOf(server);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names.filter((n) => /ApiKey|Admin|Org/.test(n))).toEqual([]);
    await client.close();
  });
});

describe('buildToolCatalog', () => {
  const options = { allowTags: ['T'], denyTags: [], bearerScheme: 'bearerAuth' };
  const op = (extra: Record<string, unknown>) => ({ operationId: 'op', tags: ['T'], security: [{ bearerAuth: ['s'] }], responses: {}, ...extra });

  it('fails loudly when two arguments share a name', () => {
    const document: OpenApiDocument = {
      paths: {
        '/x/{id}': {
          post: op({
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } } },
          }),
        },
      },
    };
    expect(() => buildToolCatalog(document, options)).toThrow(/two arguments named "id"/);
  });

  it('resolves $refs and keeps descriptions', () => {
    const document: OpenApiDocument = {
      components: { schemas: { Inner: { type: 'object', properties: { n: { type: 'integer', description: 'a number' } }, required: ['n'] } } },
      paths: {
        '/x': {
          post: op({
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { type: 'object', properties: { inner: { $ref: '#/components/schemas/Inner', description: 'the inner one' } } } } },
            },
          }),
        },
      },
    };
    const [tool] = buildToolCatalog(document, options);
    expect(tool!.definition.inputSchema.properties).toEqual({
      inner: { type: 'object', properties: { n: { type: 'integer', description: 'a number' } }, required: ['n'], description: 'the inner one' },
    });
    expect(tool!.requiredScopes).toEqual(['s']);
  });

  it('makes header parameters arguments named as identifiers, sent back as their header', () => {
    const document: OpenApiDocument = {
      paths: { '/x': { post: op({ parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, description: 'retry key', schema: { type: 'string' } }] }) } },
    };
    const [tool] = buildToolCatalog(document, options);
    expect(tool!.definition.inputSchema).toEqual({ type: 'object', properties: { idempotency_key: { type: 'string', description: 'retry key' } } });
    expect(tool!.places).toEqual({ idempotency_key: 'header' });
    expect(tool!.headerNames).toEqual({ idempotency_key: 'idempotency-key' });
  });

  it('skips operations without bearer security or an allowed tag', () => {
    const document: OpenApiDocument = {
      paths: { '/a': { get: op({ security: [{ other: [] }] }) }, '/b': { get: op({ tags: ['U'], operationId: 'b' }) } },
    };
    expect(buildToolCatalog(document, options)).toEqual([]);
  });
});
