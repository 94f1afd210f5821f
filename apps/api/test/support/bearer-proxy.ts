import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy that adds `Authorization: Bearer <token>` to every request, for clients that
 * cannot send one (the MCP conformance suite). It runs in the test process: start the client
 * with the async `spawn`, since a synchronous one would block the proxy.
 */
export async function startBearerProxy(target: string, token: string): Promise<{ url: string; close(): Promise<void> }> {
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || name === 'host' || name === 'connection' || name === 'content-length') continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    headers.set('authorization', `Bearer ${token}`);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const upstream = await fetch(new URL(req.url ?? '/', target), { method: req.method, headers, body, redirect: 'manual' });
    const answer = Buffer.from(await upstream.arrayBuffer());
    const outHeaders: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'content-encoding') outHeaders[name] = value;
    });
    res.writeHead(upstream.status, outHeaders).end(answer);
  };
  const server = createServer((req, res) => {
    forward(req, res).catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
