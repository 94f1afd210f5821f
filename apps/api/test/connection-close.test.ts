import net from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMITS } from '../src/limits';
import { requestHead } from './support/raw-http';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';

let server: TestServer;
let user: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  user = (await createTenant(server.services, server.url)).owner;
});
afterAll(() => server.close());

/** Resolves once the app's answer to the next request has been handed to the socket whole. */
const appAnswered = () =>
  new Promise<void>((resolve) => server.httpServer.once('request', (_req: IncomingMessage, res: ServerResponse) => res.once('finish', () => resolve())));

/** Resolves once Node's parser has refused a request and the server has answered it. */
const parserAnswered = () => new Promise<void>((resolve) => server.httpServer.once('clientError', () => setImmediate(resolve)));

const chunk = Buffer.alloc(16 * 1024, 0x61);
const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
const head = () => requestHead('POST', '/v1/memory', { authorization: `Bearer ${user.key}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' });

/**
 * A client that sends a chunked body without end and reads nothing while it sends (a busy
 * client): it sends `after` bytes more once the server has answered, and only then reads.
 */
async function busyClient(answered: Promise<void>, options: { after: number; badFraming?: boolean }) {
  const { hostname, port } = new URL(server.url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  socket.pause();
  const errors: string[] = [];
  socket.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
  await new Promise((resolve) => socket.once('connect', resolve));
  let answer = false;
  void answered.then(() => (answer = true));
  socket.write(head());
  if (options.badFraming) socket.write('not a chunk size\r\n');
  const send = () => new Promise<void>((resolve, reject) => socket.write(frame, (error) => (error ? reject(error) : resolve())));
  while (!answer) await send();
  for (let sent = 0; sent < options.after; sent += frame.length) await send();
  const received: Buffer[] = [];
  socket.on('data', (data: Buffer) => received.push(data));
  socket.resume();
  await new Promise((resolve) => socket.once('end', resolve));
  socket.destroy();
  return { statusLine: Buffer.concat(received).toString('utf8').split('\r\n')[0], errors };
}

describe('an answer that closes the connection before the body has all arrived', () => {
  it('reaches a client still sending that reads it late: the connection is closed in stages (RFC 9112 §9.6)', async () => {
    const answered = appAnswered();
    expect(await busyClient(answered, { after: 4 * BODY_LIMITS.requestBytes })).toEqual({ statusLine: 'HTTP/1.1 413 Payload Too Large', errors: [] });
  });

  it("reaches it too when Node's parser refused the request", async () => {
    const answered = parserAnswered();
    expect(await busyClient(answered, { after: 4 * BODY_LIMITS.requestBytes, badFraming: true })).toEqual({ statusLine: 'HTTP/1.1 400 Bad Request', errors: [] });
  });

  it('is closed all the same when the client never stops sending', async () => {
    const { hostname, port } = new URL(server.url);
    // Half-open allowed: the server's end of sending does not end this client's.
    const socket = net.connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    const received: Buffer[] = [];
    socket.on('data', (data: Buffer) => received.push(data));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(head());
    // Sends until the server ends the connection: were nothing to bound the staged close, this would never stop.
    const ended = await new Promise<string>((resolve) => {
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      const pump = () => {
        while (socket.writable && socket.write(frame));
      };
      socket.on('drain', pump);
      pump();
    });
    socket.destroy();
    expect(['EPIPE', 'ECONNRESET']).toContain(ended);
    expect(Buffer.concat(received).toString('utf8')).toMatch(/^HTTP\/1.1 413 /);
  });
});
