import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { trackInFlight } from '../src/http/shutdown';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

/** A server whose handler hands each response to `onRequest` (answered whenever the test says). */
async function listen(onRequest: (response: ServerResponse) => void) {
  server = createServer((_request, response) => onRequest(response));
  const requests = trackInFlight(server);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { requests, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function get(url: string, agent?: Agent): Promise<{ response: IncomingMessage; body: string }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { agent }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ response, body }));
    })
      .on('error', reject)
      .end();
  });
}

const refused = (url: string) => fetch(url).then(() => false, () => true);

describe('draining a server on shutdown', () => {
  it('lets the request in flight finish with Connection: close, and refuses new connections meanwhile', async () => {
    const pending: ServerResponse[] = [];
    const { requests, url } = await listen((response) => pending.push(response));
    const answer = get(url);
    await expect.poll(() => requests.size).toBe(1);
    const drained = requests.drain(60_000);
    expect(await refused(url)).toBe(true);
    pending[0]!.end('done');
    const { response, body } = await answer;
    expect(body).toBe('done');
    expect(response.headers.connection).toBe('close');
    expect(await drained).toEqual({ drained: true, abandoned: 0 });
  });

  it('is not held up by idle keep-alive connections', async () => {
    const { requests, url } = await listen((response) => response.end('ok'));
    const agent = new Agent({ keepAlive: true });
    expect((await get(url, agent)).body).toBe('ok');
    // Held open by the agent: a drain that waited for it would run to its 60 s (the test's timeout is 30 s).
    expect(await requests.drain(60_000)).toEqual({ drained: true, abandoned: 0 });
    agent.destroy();
  });

  it('cuts off what is still unanswered when the drain time is over', async () => {
    const { requests, url } = await listen(() => {});
    const answer = get(url);
    await expect.poll(() => requests.size).toBe(1);
    expect(await requests.drain(200)).toEqual({ drained: false, abandoned: 1 });
    await expect(answer).rejects.toThrow(/socket hang up|ECONNRESET/);
  });
});
