import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryBankApp } from '../src/app';
import { createTurns, TurnResponse } from '../src/http/admission';
import { startTestServer, type TestServer } from './support/server';

/**
 * Turns (src/http/admission.ts): at most MAX_CONCURRENT_REQUESTS API requests without a
 * body are worked on at once, in order of arrival, through the real server. The test's
 * routes record which requests reached the app and hold them until the test lets go.
 */

interface Routes {
  arrived: string[];
  /** Lets the request called `name` answer (or its stream finish). */
  release(name: string): void;
  releaseAll(): void;
}

function heldRoutes(): Routes & { extend(app: MemoryBankApp['app']): void } {
  const arrived: string[] = [];
  const gates = new Map<string, { promise: Promise<void>; open: () => void }>();
  const gate = (name: string) => {
    let entry = gates.get(name);
    if (!entry) {
      let open!: () => void;
      const promise = new Promise<void>((resolve) => (open = resolve));
      gates.set(name, (entry = { promise, open }));
    }
    return entry;
  };
  return {
    arrived,
    release: (name) => gate(name).open(),
    releaseAll: () => gates.forEach((entry) => entry.open()),
    extend(app) {
      app.get('/v1/test/hold/:name', async (c) => {
        const name = c.req.param('name');
        arrived.push(name);
        await gate(name).promise;
        return c.json({ name });
      });
      // The head at once, the body once released.
      app.get('/v1/test/stream/:name', (c) => {
        const name = c.req.param('name');
        arrived.push(name);
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            await gate(name).promise;
            controller.enqueue(new TextEncoder().encode('done'));
            controller.close();
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/plain' } });
      });
      app.post('/v1/test/echo', async (c) => {
        arrived.push('echo');
        return c.json(await c.req.json());
      });
    },
  };
}

describe('turns, one at a time', () => {
  const routes = heldRoutes();
  const lines: { msg?: string; route?: string; ms?: number; waited_ms?: number }[] = [];
  let server: TestServer;

  beforeAll(async () => {
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    server = await startTestServer({ env: { MAX_CONCURRENT_REQUESTS: '1' }, extend: (app) => routes.extend(app), logger });
  });
  afterEach(() => routes.releaseAll());
  afterAll(() => server.close());

  const get = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, init);

  it('lets API requests in one at a time, in order of arrival', async () => {
    const a = get('/v1/test/hold/a');
    await expect.poll(() => routes.arrived).toEqual(['a']);
    const b = get('/v1/test/hold/b');
    await expect.poll(() => server.turns.waiting).toBe(1);
    const c = get('/v1/test/hold/c');
    await expect.poll(() => server.turns.waiting).toBe(2);
    expect(routes.arrived).toEqual(['a']);
    expect(server.turns.inProgress).toBe(1);

    routes.release('a');
    expect((await a).status).toBe(200);
    await expect.poll(() => routes.arrived).toEqual(['a', 'b']);
    expect(server.turns.waiting).toBe(1);
    routes.release('b');
    routes.release('c');
    expect((await b).status).toBe(200);
    expect(await (await c).json()).toEqual({ name: 'c' });
    expect(routes.arrived).toEqual(['a', 'b', 'c']);
    await expect.poll(() => server.turns.inProgress).toBe(0);
    // The access log tells the wait apart from the work: only those that waited say so.
    const logged = lines.filter((line) => line.msg === 'request' && line.route === '/v1/test/hold/:name');
    expect(logged).toHaveLength(3);
    expect(logged[0]!.waited_ms).toBeUndefined();
    expect(logged.slice(1).every((line) => line.waited_ms! > 0)).toBe(true);
  });

  it('ends a turn when the head is written: a stream holds one only until it starts', async () => {
    routes.arrived.length = 0;
    const stream = await get('/v1/test/stream/s');
    expect(stream.status).toBe(200);
    // Its body is still held, and the next request (free to answer) is let in beside it.
    routes.release('next');
    const next = await get('/v1/test/hold/next', { signal: AbortSignal.timeout(10_000) }).catch((error: Error) => error);
    expect(next).not.toBeInstanceOf(Error);
    expect(routes.arrived).toEqual(['s', 'next']);
    routes.release('s');
    expect(await stream.text()).toBe('done');
  }, 15_000);

  it('never holds back requests with a body, nor anything outside /v1', async () => {
    routes.arrived.length = 0;
    const held = get('/v1/test/hold/h');
    await expect.poll(() => routes.arrived).toEqual(['h']);
    const echo = await get('/v1/test/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"x":1}' });
    expect(await echo.json()).toEqual({ x: 1 });
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/openapi.json')).status).toBe(200);
    expect(server.turns.inProgress).toBe(1);
    routes.release('h');
    expect((await held).status).toBe(200);
  });

  it('drops a request whose client went away while it waited', async () => {
    routes.arrived.length = 0;
    const held = get('/v1/test/hold/first');
    await expect.poll(() => routes.arrived).toEqual(['first']);
    const abort = new AbortController();
    const gone = get('/v1/test/hold/gone', { signal: abort.signal }).catch((error: Error) => error);
    await expect.poll(() => server.turns.waiting).toBe(1);
    abort.abort();
    expect(await gone).toBeInstanceOf(Error);
    await expect.poll(() => server.turns.waiting).toBe(0);

    const last = get('/v1/test/hold/last');
    await expect.poll(() => server.turns.waiting).toBe(1);
    routes.release('first');
    routes.release('last');
    // Were the one that went away let in, it would hold the only turn (never released) and `last` would not be answered.
    expect((await last).status).toBe(200);
    expect((await held).status).toBe(200);
    expect(routes.arrived).toEqual(['first', 'last']);
  });
});

describe('turns and REQUEST_TIMEOUT_MS', () => {
  const TIMEOUT_MS = 2000;
  const routes = heldRoutes();
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { MAX_CONCURRENT_REQUESTS: '1', REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) }, extend: (app) => routes.extend(app) });
  });
  afterAll(async () => {
    routes.releaseAll();
    await server.close();
  });

  it('counts the wait for a turn in the request’s time: 503 within REQUEST_TIMEOUT_MS of its arrival, not after a second one', async () => {
    const first = fetch(`${server.url}/v1/test/hold/never-1`);
    await expect.poll(() => routes.arrived).toEqual(['never-1']);
    const sent = performance.now();
    const second = fetch(`${server.url}/v1/test/hold/never-2`);
    await expect.poll(() => server.turns.waiting).toBe(1);
    // The first is answered by its deadline, which ends its turn; the second then has
    // only what is left of its own.
    const [a, b] = await Promise.all([first, second]);
    const elapsed = performance.now() - sent;
    expect(a.status).toBe(503);
    expect(b.status).toBe(503);
    expect(b.headers.get('retry-after')).toBe('5');
    expect(await b.json()).toMatchObject({ type: 'urn:memory-bank:problem:unavailable' });
    // Waiting, then a whole REQUEST_TIMEOUT_MS of its own, it would take ~2 × TIMEOUT_MS.
    expect(elapsed).toBeLessThan(TIMEOUT_MS * 1.5);
  }, 15_000);
});

describe('turns, a long queue', () => {
  it('lets every waiting request in, in order, however long the queue grows', () => {
    const turns = createTurns(1);
    const started: number[] = [];
    const responses: TurnResponse[] = [];
    const listener = turns.wrap((req) => void started.push(Number(req.headers['x-n'])));
    const COUNT = 5000;
    for (let n = 0; n < COUNT; n++) {
      const req = new IncomingMessage(new Socket());
      req.url = '/v1/test';
      req.headers = { 'x-n': String(n) };
      const res = new TurnResponse(req);
      responses.push(res);
      listener(req, res);
    }
    expect(started).toEqual([0]);
    expect(turns.waiting).toBe(COUNT - 1);
    // Each head written lets the next one in (past the points where the queue is compacted).
    for (let n = 0; n < COUNT; n++) {
      responses[n]!.writeHead(200);
      expect(started).toHaveLength(Math.min(n + 2, COUNT));
    }
    expect(started).toEqual(Array.from({ length: COUNT }, (_, n) => n));
    expect(turns.waiting).toBe(0);
    expect(turns.inProgress).toBe(0);
  });
});
