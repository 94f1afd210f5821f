import { classifyInboundRequest, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { isPlainLegacyRequest } from '../src/mcp/plain-request';

type Headers = Record<string, string>;

const headerOf = (headers: Headers) => (name: string) => headers[name];

const sdkVerdict = (body: unknown, headers: Headers) => {
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: headers['mcp-protocol-version'],
    mcpMethodHeader: headers['mcp-method'],
    mcpNameHeader: headers['mcp-name'],
    body,
  });
  return route.kind === 'legacy' && 'reason' in route ? `legacy/${route.reason}` : route.kind;
};

const ids = [1, 0, -5, 'abc', '', Number.MAX_SAFE_INTEGER];
const methods = ['tools/call', 'tools/list', 'resources/read', 'prompts/get', 'ping'];
const paramsList: unknown[] = [
  undefined,
  {},
  { name: 'getMemorySearch', arguments: { q: 'deploy', limit: 20 } },
  { _meta: {} },
  { _meta: { progressToken: 3 }, name: 'x' },
  { _meta: { progressToken: 'token', 'com.example/trace': 'a' } },
];
const headerSets: Headers[] = [{}, ...SUPPORTED_PROTOCOL_VERSIONS.map((version) => ({ 'mcp-protocol-version': version }))];

const plainBodies = ids.flatMap((id) =>
  methods.flatMap((method) => paramsList.map((params) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }))),
);

const search = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'getMemorySearch', arguments: { q: 'deploy' } } };
const notPlain: [string, unknown, Headers][] = [
  ['initialize', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }, {}],
  ['a fractional id', { ...search, id: 1.5 }, {}],
  ['a null id', { ...search, id: null }, {}],
  ['a boolean id', { ...search, id: true }, {}],
  ['no id (a notification)', { jsonrpc: '2.0', method: 'notifications/initialized' }, {}],
  ['another JSON-RPC version', { ...search, jsonrpc: '1.0' }, {}],
  ['a method that is no string', { ...search, method: 7 }, {}],
  ['a result beside the request', { ...search, result: {} }, {}],
  ['an error beside the request', { ...search, error: { code: 1, message: 'x' } }, {}],
  ['a key JSON-RPC does not have', { ...search, extra: 1 }, {}],
  ['params as an array', { ...search, params: [1, 2] }, {}],
  ['params null', { ...search, params: null }, {}],
  ['_meta as an array', { ...search, params: { ...search.params, _meta: [] } }, {}],
  ['a 2026-07-28 envelope claim', { ...search, params: { ...search.params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }, {}],
  ['a related-task key', { ...search, params: { ...search.params, _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } } }, {}],
  ['a fractional progress token', { ...search, params: { ...search.params, _meta: { progressToken: 1.5 } } }, {}],
  ['an object progress token', { ...search, params: { ...search.params, _meta: { progressToken: {} } } }, {}],
  ['a modern protocol version header', search, { 'mcp-protocol-version': '2026-07-28' }],
  ['an unknown protocol version header', search, { 'mcp-protocol-version': '1999-01-01' }],
  ['a version header with whitespace', search, { 'mcp-protocol-version': ` ${SUPPORTED_PROTOCOL_VERSIONS[0]}` }],
  ['an Mcp-Method header', search, { 'mcp-method': 'tools/call' }],
  ['an Mcp-Name header', search, { 'mcp-name': 'getMemorySearch' }],
  ['a batch', [search], {}],
  ['null', null, {}],
  ['a string', 'tools/call', {}],
];

describe('isPlainLegacyRequest (the MCP bridge skipping the SDK classification)', () => {
  it('says yes only where the SDK classifies a 2025-era request other than initialize', () => {
    expect(plainBodies.length * headerSets.length).toBeGreaterThan(500);
    for (const body of plainBodies) {
      for (const headers of headerSets) {
        expect({ body, headers, plain: isPlainLegacyRequest(body, headerOf(headers), SUPPORTED_PROTOCOL_VERSIONS) }).toEqual({ body, headers, plain: true });
        expect({ body, headers, sdk: sdkVerdict(body, headers) }).toEqual({ body, headers, sdk: 'legacy/no-claim' });
      }
    }
  });

  it.each(notPlain)('leaves %s to the SDK', (_, body, headers) => {
    expect(isPlainLegacyRequest(body, headerOf(headers), SUPPORTED_PROTOCOL_VERSIONS)).toBe(false);
  });
});
