import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createMigratedDatabase } from './support/database';
import { fixture, newSessionId } from './support/hooks';
import { request } from './support/http';
import { exited, groupAlive, startService } from './support/process';
import { startTestS3, type TestS3 } from './support/s3';

const OPERATOR = 'operator-token-shutdown-test-0123456789';
let database: { url: string; drop(): Promise<void> };
let s3: TestS3;

// Real `pnpm start` processes run the archiver over their database: a database of its own.
beforeAll(async () => {
  database = await createMigratedDatabase(inject('databaseServerUrl'), 'shutdown');
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.stop();
  await database?.drop();
});

/** Waits until `output()` matches `pattern`. */
async function waitFor(output: () => string, pattern: RegExp): Promise<RegExpMatchArray> {
  await expect.poll(() => pattern.test(output()), { timeout: 30_000, interval: 50 }).toBe(true);
  return output().match(pattern)!;
}

/** Whether the server still accepts connections. */
const answers = (url: string) => fetch(`${url}/healthz`).then(() => true, () => false);

describe('pnpm start, signalled like a terminal or a supervisor signals it', () => {
  it('on SIGTERM to pnpm: finishes the upload in flight, refuses new connections, stores the pending segment, exits 0 with no process left', async () => {
    const service = await startService({ DATABASE_URL: database.url, PORT: '0', LOG_LEVEL: 'info', MEMORY_BANK_OPERATOR_TOKEN: OPERATOR, ...s3.env('drain') });
    const provisioned = await request(service.url, 'POST', '/v1/admin/orgs', { key: OPERATOR, body: { name: 'drain', owner: { email: 'drain@example.test' } } });
    const key = provisioned.body.api_key.key as string;
    const body = Buffer.from(JSON.stringify(fixture('claude-code', 'user-prompt-submit', { session_id: newSessionId() })));

    // `Expect: 100-continue`: the server answers 100 once it has the request, so the
    // upload is in flight (the server is waiting for its body) before the signal.
    const upload = httpRequest(`${service.url}/v1/hooks/claude-code`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': body.length, expect: '100-continue' },
    });
    const answered = new Promise<{ response: IncomingMessage; text: string }>((resolve, reject) => {
      upload.on('response', (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ response, text }));
      });
      upload.on('error', reject);
    });
    await new Promise<void>((resolve) => upload.once('continue', resolve));
    upload.write(body.subarray(0, 10));

    const exit = exited(service.child);
    process.kill(service.child.pid!, 'SIGTERM'); // pnpm alone, not its process group
    const [line] = await waitFor(service.output, /\{[^\n]*"msg":"shutting down"[^\n]*\}/);
    expect(JSON.parse(line!)).toMatchObject({ signal: 'SIGTERM', in_flight: 1, drain_ms: 10_000 });
    expect(await answers(service.url)).toBe(false);

    upload.end(body.subarray(10));
    const { response, text } = await answered;
    expect(response.statusCode).toBe(202);
    expect(response.headers.connection).toBe('close');
    const { workstream_id: workstreamId } = JSON.parse(text) as { workstream_id: string };

    expect(await exit).toEqual({ code: 0, signal: null });
    // pnpm waited for the server; esbuild's helper (when this start bundled) ends right after.
    await expect.poll(() => groupAlive(service.child.pid!), { timeout: 20_000, interval: 50 }).toBe(false);
    expect(service.output()).toMatch(/"msg":"requests drained"/);
    expect(service.output()).toMatch(/"msg":"stopped"/);
    // The event arrived after the signal, in a segment not yet due: stored by the final seal.
    const keys = await s3.listKeys();
    expect(keys.some((k) => k.includes(`/workstreams/${workstreamId}/segments/`))).toBe(true);
  }, 120_000);

  it('on SIGINT to pnpm (Ctrl-C): the server stops too, exit 0, no orphan left answering', async () => {
    const service = await startService({ DATABASE_URL: database.url, PORT: '0', LOG_LEVEL: 'warn', ...s3.env('interrupt') });
    expect(await answers(service.url)).toBe(true);
    const exit = exited(service.child);
    process.kill(service.child.pid!, 'SIGINT');
    expect(await exit).toEqual({ code: 0, signal: null });
    await expect.poll(() => groupAlive(service.child.pid!), { timeout: 20_000, interval: 50 }).toBe(false);
    expect(await answers(service.url)).toBe(false);
  }, 120_000);
});
