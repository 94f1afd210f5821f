import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything the server sent before it closed the connection. */
  raw: string;
}

export interface RawExchange {
  socket: net.Socket;
  /** Resolves when the server has closed the connection, with all it sent. */
  closed: Promise<RawAnswer>;
}

function parse(raw: string): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: end === -1 ? '' : raw.slice(end + 4), raw };
}

/**
 * Writes `bytes` on a fresh TCP connection to `url` and keeps it open: the server decides
 * when the exchange ends. Nothing is sent after `bytes`, so a request whose head declares
 * more body than `bytes` holds is a stalled request.
 */
export function rawExchange(url: string, bytes: string | Buffer): RawExchange {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = new Promise<RawAnswer>((resolve) => {
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(parse(Buffer.concat(chunks).toString('utf8'))));
  });
  socket.write(bytes);
  return { socket, closed };
}

/** A request head: the request line, `headers`, and the blank line that ends them. */
export function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = Object.entries({ host: 'localhost', ...headers }).map(([name, value]) => `${name}: ${value}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}
