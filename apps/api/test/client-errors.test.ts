import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, requestHead } from './support/raw-http';
import { startTestServer, type TestServer } from './support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Sends `bytes`, waits for the server to close the connection, and checks the problem it sent. */
async function expectProblem(bytes: string, status: number, type: string) {
  const answer = await rawExchange(server.url, bytes).closed;
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/problem+json');
  expect(answer.headers.connection).toBe('close');
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  const problem = JSON.parse(answer.body);
  expect(problem).toMatchObject({ type: `urn:memory-bank:problem:${type}`, status, title: expect.any(String), detail: expect.any(String) });
  expect(problem.request_id).toMatch(/^[\w-]{8,}$/);
  expect(answer.headers['x-request-id']).toBe(problem.request_id);
  return problem;
}

describe('answers from below the app', () => {
  it('431 problem for headers larger than the parser takes', async () => {
    await expectProblem(requestHead('GET', '/healthz', { 'x-padding': 'a'.repeat(20_000) }), 431, 'header_fields_too_large');
  });

  it('431 problem for a URL larger than the parser takes', async () => {
    await expectProblem(requestHead('GET', `/v1/memory?q=${'a'.repeat(20_000)}`, {}), 431, 'header_fields_too_large');
  });

  it('400 problem for Content-Length together with Transfer-Encoding', async () => {
    const head = requestHead('POST', '/v1/memory', { 'content-type': 'application/json', 'content-length': 2, 'transfer-encoding': 'chunked' });
    const problem = await expectProblem(`${head}2\r\n{}\r\n0\r\n\r\n`, 400, 'bad_request');
    expect(problem.detail).toMatch(/Content-Length/i);
  });

  it('400 problem for bytes that are not HTTP', async () => {
    await expectProblem('HELLO THERE\r\n\r\n', 400, 'bad_request');
  });

  it('still serves on other connections', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
