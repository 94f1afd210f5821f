import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';
import { expectStatus, type Answer } from './support/http';
import { batchOf, type BatchEvent } from './support/hooks';

const BUDGET = 1024 * 1024;
let server: TestServer;
let user: TestUser;

beforeAll(async () => {
  server = await startTestServer({ env: { MAX_BODY_BYTES_IN_FLIGHT: String(BUDGET) } });
  user = (await createTenant(server.services, server.url)).owner;
});
afterAll(() => server.close());

/** A POST whose headers are sent at once and whose body is sent when the test says. */
function slowPost(path: string, body: string) {
  const url = new URL(path, server.url);
  let answered!: (res: { status: number; body: string }) => void;
  const answer = new Promise<{ status: number; body: string }>((resolve) => (answered = resolve));
  const req: ClientRequest = httpRequest(
    url,
    { method: 'POST', headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
    (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => answered({ status: res.statusCode ?? 0, body: text }));
    },
  );
  req.on('error', () => undefined);
  req.write(body.slice(0, 10));
  return {
    answer,
    finish: () => req.end(body.slice(10)),
  };
}

const memoryBody = (bytes: number) => JSON.stringify({ content: 'x'.repeat(bytes) });

describe('bodies in flight', () => {
  it('answers 503 with Retry-After, unread, when held bodies would pass the budget; serves again once they are done', async () => {
    const first = slowPost('/v1/memory', memoryBody(700_000));
    // The first request holds its 700 kB while its body trickles in: once it has arrived,
    // a second large body is refused (before that, it is let in and fails validation, 400).
    let second!: Answer<'post', '/v1/memory'>;
    await expect
      .poll(async () => (second = await user.api.post('/v1/memory', { body: { content: 'y'.repeat(400_000) } })).status, { timeout: 5000, interval: 20 })
      .toBe(503);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(second.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(second.body).toMatchObject({ status: 503, type: 'urn:memory-bank:problem:unavailable' });
    // Small bodies still fit beside it, and reads are never counted.
    expect((await user.api.post('/v1/memory', { body: { content: 'small' } })).status).toBe(201);
    expect((await user.api.get('/v1/memory')).status).toBe(200);

    first.finish();
    expect((await first.answer).status).not.toBe(503);
    const third = await user.api.post('/v1/memory', { body: { content: 'y'.repeat(400_000) } });
    expect(third.status).not.toBe(503);
  });

  it('always lets a single request in, even one larger than the budget', async () => {
    const events = Array.from({ length: 3 }, (_, i): BatchEvent => ({
      harness: 'generic',
      payload: { session_id: `budget-${Date.now()}`, hook_event_name: 'Note', message: `${i} ${'z'.repeat(500_000)}` },
    }));
    const res = await user.api.post('/v1/hooks/batch', { body: batchOf(events) });
    expectStatus(res, 200);
  });
});
