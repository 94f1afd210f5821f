import type { JSONRPCMessage, JSONRPCRequest, JSONRPCResponse, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';

const isResponse = (message: JSONRPCMessage): message is JSONRPCResponse => 'id' in message && ('result' in message || 'error' in message);

/**
 * An SDK Transport that a pooled Server keeps from one 2025-era request to the next: each
 * `exchange` hands the server one JSON-RPC request and resolves with its response. The SDK's
 * own stateless transport may serve only one request, so every call would pay for a new
 * transport, a connect and a close, and a web Response read back as text; this one serves
 * requests one after another (the pool never gives a server two at once). Messages the
 * server sends other than that response (notifications) are dropped, as the SDK's JSON
 * response mode does.
 */
export class ExchangeTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  #waiting: { id: JSONRPCRequest['id']; resolve: (response: JSONRPCResponse) => void } | undefined;
  #closed = false;

  /** False once the server closed it: it takes no more requests (a new pair is built instead). */
  get open(): boolean {
    return !this.#closed;
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const waiting = this.#waiting;
    if (waiting && isResponse(message) && message.id === waiting.id) {
      this.#waiting = undefined;
      waiting.resolve(message);
    }
  }

  exchange(request: JSONRPCRequest, extra: MessageExtraInfo): Promise<JSONRPCResponse> {
    if (this.#waiting) throw new Error('ExchangeTransport: one request at a time');
    if (this.#closed || !this.onmessage) throw new Error('ExchangeTransport: not connected');
    const onmessage = this.onmessage;
    return new Promise((resolve) => {
      this.#waiting = { id: request.id, resolve };
      onmessage(request, extra);
    });
  }
}

/**
 * A response to `method` as JSON text. A tools/call result's structuredContent is the value
 * its one text block holds as JSON (invokeTool builds both from one value), so that text is
 * spliced in rather than the value serialised a second time.
 */
export function responseBody(method: string, response: JSONRPCResponse): string {
  const result = 'result' in response ? (response.result as Record<string, unknown>) : undefined;
  const content = result?.content;
  const single = Array.isArray(content) && content.length === 1 ? (content[0] as { type?: unknown; text?: unknown }) : undefined;
  if (method !== 'tools/call' || typeof result?.structuredContent !== 'object' || single?.type !== 'text' || typeof single.text !== 'string') {
    return JSON.stringify(response);
  }
  const { structuredContent: _, ...rest } = result;
  const head = JSON.stringify(rest);
  const resultJson = `${head === '{}' ? '{' : `${head.slice(0, -1)},`}"structuredContent":${single.text}}`;
  return `{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":${resultJson}}`;
}
