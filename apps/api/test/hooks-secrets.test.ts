import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SECRETS, embedSecrets, findSurvivingSecrets } from './fixtures/secrets';
import { batchOf, fixture, newSessionId } from './support/hooks';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';
import { expectStatus } from './support/http';

let server: TestServer;
let user: TestUser;
let logs = '';

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs += chunk.toString();
      done();
    },
  });
  server = await startTestServer({ logger: pino({ level: 'trace' }, sink), ownDatabase: true });
  user = (await createTenant(server.services, server.url)).owner;
});
afterAll(() => server.close());

describe('no secret survives ingestion', () => {
  it('is redacted before the ledger, the archive, API responses and logs', async () => {
    expect(ALL_SECRETS.length).toBeGreaterThanOrEqual(25);
    const session = newSessionId();
    const responses: string[] = [];
    const keep = <T extends { text: string }>(res: T): T => {
      responses.push(res.text);
      return res;
    };

    // Single posts of every shape, and a batch.
    const single = keep(await user.api.post('/v1/hooks/claude-code', { body: embedSecrets({ session_id: session }) }));
    expectStatus(single, 202);
    const workstreamId = JSON.parse(single.text).workstream_id as string;
    for (const [harness, name, extra] of [
      ['claude-code', 'user-prompt-submit', { session_id: session, prompt: JSON.stringify(embedSecrets()) }],
      ['opencode', 'tool-execute-after', { sessionID: newSessionId(), args: embedSecrets() }],
      ['generic', 'tool-result', { session_id: newSessionId(), tool_output: JSON.stringify(embedSecrets()) }],
    ] as const) {
      expect(keep(await user.api.post(`/v1/hooks/${harness}`, { body: fixture(harness, name, extra) })).status).toBe(202);
    }
    keep(
      await user.api.post('/v1/hooks/batch', {
        body: batchOf([{ harness: 'claude-code', payload: embedSecrets({ session_id: session, tool_use_id: 'toolu_batchSecret000000000' }) }]),
      }),
    );
    // Refused payloads must not echo them either.
    const refused = keep(await user.api.post('/v1/hooks/claude-code', { body: embedSecrets({ session_id: undefined }) }));
    expectStatus(refused, 400);

    await server.archiver.runOnce(true);

    // API responses: timeline, search, actions, raw archive, a remembered memory.
    keep(await user.api.get(`/v1/workstreams/${workstreamId}/events?include_lifecycle=true`));
    for (const q of ['deploy credentials', 'Bearer Authorization', 'AWS key secret password token']) {
      keep(await user.api.get(`/v1/workstreams/search?q=${encodeURIComponent(q)}&limit=50`));
    }
    keep(await user.api.get(`/v1/workstreams/${workstreamId}/actions`));
    const raw = keep(await user.api.get(`/v1/workstreams/${workstreamId}/raw`));
    expect(raw.text.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(3);
    expect(raw.text).toContain('[REDACTED:');
    keep(await user.api.post(`/v1/workstreams/${workstreamId}/events/1/remember`, { body: {} }));
    keep(await user.api.get('/v1/memory?limit=100'));
    for (const text of responses) expect(findSurvivingSecrets(text)).toEqual([]);

    // The database: every column of every row of this org.
    for (const table of ['workstream_events', 'workstreams', 'archive_segments', 'memory', 'memory_context']) {
      const [rows] = await server.database.pool.query(`SELECT * FROM ${table} WHERE org_id = ?`, [user.orgId]);
      expect((rows as unknown[]).length, table).toBeGreaterThan(0);
      expect(findSurvivingSecrets(JSON.stringify(rows)), table).toEqual([]);
    }
    const [counted] = await server.database.pool.query('SELECT metadata FROM workstream_events WHERE workstream_id = ? AND sequence = 1', [workstreamId]);
    const stored = (counted as { metadata: unknown }[])[0]!.metadata;
    const metadata = (typeof stored === 'string' ? JSON.parse(stored) : stored) as { redactions: Record<string, number> };
    expect(Object.values(metadata.redactions).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(ALL_SECRETS.length);

    // The archive: every object of this org.
    const files = await filesUnder(join(new URL(server.config.ARCHIVE_URL).pathname, 'orgs', user.orgId));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) expect(findSurvivingSecrets(await readFile(file, 'utf8')), file).toEqual([]);

    // The logs.
    expect(logs.length).toBeGreaterThan(0);
    expect(findSurvivingSecrets(logs)).toEqual([]);
  });
});
