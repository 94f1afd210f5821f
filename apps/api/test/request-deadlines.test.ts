import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, requestHead, type RawAnswer } from './support/raw-http';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';
import { bodyOf, expectStatus } from './support/http';

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
      env: { MAX_BODY_BYTES_IN_FLIGHT: String(2 * MiB), REQUEST_TIMEOUT_MS: '2000', BODY_READ_TIMEOUT_MS: '500' },
    });
    user = (await createTenant(server.services, server.url)).owner;
  });
  afterAll(() => server.close());

  it('cuts off two stalled 1 MiB bodies, closes their sockets and gives their budget back', async () => {
    const stalled = [stalledBody(server, user.key, 'POST', '/v1/memory'), stalledBody(server, user.key, 'POST', '/v1/memory')];
    for (const answer of await Promise.all(stalled.map((s) => s.closed))) expectCutOff(answer);

    expect((await user.api.post('/v1/memory', { body: { content: 'after the stalls' } })).status).toBe(201);
    const tooLarge = await user.api.post('/v1/memory', { body: { content: 'x'.repeat(MiB + 1) } });
    expectStatus(tooLarge, 413);
  });
});

describe('a permanent 413 while the budget is taken', () => {
  let server: TestServer;
  let user: TestUser;
  beforeAll(async () => {
    // Deadlines far away: the stalled bodies hold the budget until the test lets go.
    server = await startTestServer({ env: { MAX_BODY_BYTES_IN_FLIGHT: String(2 * MiB), REQUEST_TIMEOUT_MS: '60000', BODY_READ_TIMEOUT_MS: '60000' } });
    user = (await createTenant(server.services, server.url)).owner;
  });
  afterAll(() => server.close());

  it('stays 413, not a retryable 503; clients that go away give their budget back', async () => {
    const holding = [stalledBody(server, user.key, 'POST', '/v1/memory'), stalledBody(server, user.key, 'POST', '/v1/memory')];
    // Both are in (2 MiB of 2 MiB) once a third body is refused for want of budget.
    await expect
      .poll(async () => (await user.api.post('/v1/memory', { body: { content: 'waiting' } })).status, { timeout: 10_000, interval: 20 })
      .toBe(503);
    const tooLarge = await user.api.post('/v1/memory', { body: { content: 'x'.repeat(MiB + 1) } });
    expectStatus(tooLarge, 413);
    for (const { socket } of holding) socket.destroy();
    await Promise.all(holding.map((h) => h.closed));
    await expect
      .poll(async () => (await user.api.post('/v1/memory', { body: { content: 'after the aborts' } })).status, { timeout: 10_000, interval: 20 })
      .toBe(201);
  });
});

describe('stalled bodies on every route that takes one', () => {
  let server: TestServer;
  let user: TestUser;
  let memoryId: string;
  beforeAll(async () => {
    // A budget of one body: any leak at all refuses the next body.
    server = await startTestServer({ env: { MAX_BODY_BYTES_IN_FLIGHT: String(MiB), REQUEST_TIMEOUT_MS: '10000', BODY_READ_TIMEOUT_MS: '300' } });
    user = (await createTenant(server.services, server.url)).owner;
    memoryId = bodyOf(await user.api.post('/v1/memory', { body: { content: 'to be patched' } }), 201).id;
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
    const { closed } = stalledBody(server, user.key, method, template.replace('{id}', memoryId));
    const answer = await closed;
    expectCutOff(answer);
    // Cut off by the body-read deadline, not the (much longer) request deadline.
    expect(JSON.parse(answer.body).detail).toContain('300 ms');
    expect((await user.api.post('/v1/memory', { body: { content: `after the stall of ${method} ${template}` } })).status).toBe(201);
  });
});
