import type { JSONRPCMessage, JSONRPCResponse } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { ExchangeTransport, responseBody } from '../src/mcp/exchange-transport';

describe('responseBody', () => {
  const value = { results: [{ id: 'mem_1', content: 'say "hi" \\ naïve' }], next_cursor: null };
  const text = JSON.stringify(value);

  it('is the JSON of the response, a tool result spliced from its text', () => {
    const responses: JSONRPCResponse[] = [
      { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text }], structuredContent: value } },
      { jsonrpc: '2.0', id: 'a"b', result: { isError: true, _meta: { x: 1 }, content: [{ type: 'text', text }], structuredContent: value } },
      { jsonrpc: '2.0', id: 8, result: { content: [{ type: 'text', text: 'Done (HTTP 204).' }] } },
      { jsonrpc: '2.0', id: 9, error: { code: -32602, message: 'Unknown tool: x' } },
    ];
    for (const response of responses) expect(JSON.parse(responseBody('tools/call', response))).toEqual(response);
    // Spliced: the text's own bytes, not a second serialisation of the value.
    expect(responseBody('tools/call', { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '{ "a" : 1 }' }], structuredContent: { a: 1 } } })).toContain('"structuredContent":{ "a" : 1 }');
  });

  it('serialises any other method whole', () => {
    const response: JSONRPCResponse = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '{}' }], structuredContent: { a: 1 } } };
    expect(JSON.parse(responseBody('resources/read', response))).toEqual(response);
  });
});

describe('ExchangeTransport', () => {
  it('resolves an exchange with the response to its request only, one request at a time', async () => {
    const transport = new ExchangeTransport();
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => void received.push(message);
    const answer = transport.exchange({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, {});
    expect(() => transport.exchange({ jsonrpc: '2.0', id: 4, method: 'tools/list' }, {})).toThrow(/one request at a time/);
    await transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'dropped' } });
    await transport.send({ jsonrpc: '2.0', id: 99, result: {} });
    await transport.send({ jsonrpc: '2.0', id: 3, result: { tools: [] } });
    expect(await answer).toEqual({ jsonrpc: '2.0', id: 3, result: { tools: [] } });
    expect(received).toEqual([{ jsonrpc: '2.0', id: 3, method: 'tools/list' }]);
    // Free again for the next request.
    const next = transport.exchange({ jsonrpc: '2.0', id: 4, method: 'ping' }, {});
    await transport.send({ jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'no' } });
    expect(await next).toMatchObject({ id: 4, error: { code: -32601 } });
    // Closed (by its server), it takes no more.
    let closed = 0;
    transport.onclose = () => void (closed += 1);
    await transport.close();
    await transport.close();
    expect(closed).toBe(1);
    expect(transport.open).toBe(false);
    expect(() => transport.exchange({ jsonrpc: '2.0', id: 5, method: 'ping' }, {})).toThrow(/not connected/);
  });
});
