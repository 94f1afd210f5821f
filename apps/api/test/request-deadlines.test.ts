import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, requestHead, type RawAnswer } from './support/raw-http';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';

const MiB = 1024 * 1024;

/**
 * A request whose head declares a `declared`-byte body of which only the first bytes are
 * ever sent, on a connection the client keeps open.
 */
function stalledBody(server: TestServer, key: string, method: string, path: string, declared = MiB) {
  const head = requestHead(method, path, {
    authorization: `Bearer ${key}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'content-length': declared,
  });
  return rawExchange(server.url, head + '{"content":"');
}

const expectCutOff = (answer: RawAnswer) => {
  expect(answer.status).toBe(408);
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(answer.headers.connection).toBe('close');
  expect(JSON.parse(answer.body)).toMatchObject({ status: 408, type: 'urn:memory-bank:problem:request_timeout', request_id: expect.any(String) });
};

describe('stalled bodies: the issue’s reproduction', () => {
  let server: TestServer;
  let user: TestUser;
  beforeAll(async () => {
    server = await startTestServer({
      // The stalled bodies hold the budget for a second: time for the test to look at it.
      env: { MAX_BODY_BYTES_IN_FLIGHT: String(2 * MiB), REQUEST_TIMEOUT_MS: '2000', BODY_READ_TIMEOUT_MS: '1000' },
    });
    user = (await createTenant(server.services, server.url)).owner;
  });
  afterAll(() => server.close());

  it('cuts off two stalled 1 MiB bodies, closes their sockets and gives their budget back', async () => {
    const stalled = [stalledBody(server, user.key, 'POST', '/v1/memory'), stalledBody(server, user.key, 'POST', '/v1/memory')];
    for (const answer of await Promise.all(stalled.map((s) => s.closed))) expectCutOff(answer);

    expect((await user.api.post('/v1/memory', { body: { content: 'after the stalls' } })).status).toBe(201);
    const tooLarge = await user.api.post('/v1/memory', { body: { content: 'x'.repeat(MiB + 1) } });
    expect(tooLarge.status).toBe(413);
  });

  it('keeps a permanent 413 a 413 while the budget is taken', async () => {
    const holding = stalledBody(server, user.key, 'POST', '/v1/memory');
    const second = stalledBody(server, user.key, 'POST', '/v1/memory');
    // Both are in (2 MiB of 2 MiB) once a third body is refused for want of budget.
    await expect
      .poll(async () => (await user.api.post('/v1/memory', { body: { content: 'waiting' } })).status, { timeout: 5000, interval: 20 })
      .toBe(503);
    const tooLarge = await user.api.post('/v1/memory', { body: { content: 'x'.repeat(MiB + 1) } });
    expect(tooLarge.status).toBe(413);
    await Promise.all([holding.closed, second.closed]);
  });
});

describe('stalled bodies on every route that takes one', () => {
  let server: TestServer;
  let user: TestUser;
  let memoryId: string;
  beforeAll(async () => {
    // A budget of one body: any leak at all refuses the next body.
    server = await startTestServer({ env: { MAX_BODY_BYTES_IN_FLIGHT: String(MiB), REQUEST_TIMEOUT_MS: '1000', BODY_READ_TIMEOUT_MS: '300' } });
    user = (await createTenant(server.services, server.url)).owner;
    memoryId = (await user.api.post('/v1/memory', { body: { content: 'to be patched' } })).body.id;
  });
  afterAll(() => server.close());

  const routes = [
    ['POST', '/v1/memory'],
    ['PATCH', '/v1/memory/{id}'],
    ['POST', '/v1/hooks/batch'],
    ['POST', '/v1/hooks/generic'],
    ['POST', '/v1/api-keys'],
    ['POST', '/mcp'],
  ] as const;

  it.each(routes)('%s %s: answers 408, closes the socket, frees the budget', async (method, template) => {
    const started = performance.now();
    const { closed } = stalledBody(server, user.key, method, template.replace('{id}', memoryId));
    expectCutOff(await closed);
    // Cut off at the body-read deadline, not at the (longer) request deadline.
    expect(performance.now() - started).toBeLessThan(1000);
    expect((await user.api.post('/v1/memory', { body: { content: 'after the stall' } })).status).toBe(201);
  });

  it('frees the budget of a client that goes away mid-body', async () => {
    const { socket, closed } = stalledBody(server, user.key, 'POST', '/v1/memory');
    // The server holds the budget once the body is in flight: a second body is refused.
    await expect
      .poll(async () => (await user.api.post('/v1/memory', { body: { content: 'waiting' } })).status, { timeout: 5000, interval: 20 })
      .toBe(503);
    socket.destroy();
    await closed;
    await expect
      .poll(async () => (await user.api.post('/v1/memory', { body: { content: 'after the abort' } })).status, { timeout: 5000, interval: 20 })
      .toBe(201);
  });
});
