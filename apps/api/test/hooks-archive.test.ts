import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSegment } from '../src/archive/segment';
import { claudeSession, fixture, newSessionId } from './support/hooks';
import { startTestS3, type TestS3 } from './support/s3';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';
import { bodyOf, expectStatus } from './support/http';

let s3: TestS3;
let server: TestServer;
let user: TestUser;

/**
 * The app's clock runs ahead by `ahead` ms: a test ages pending events by moving it, not by
 * sleeping, and a slow machine cannot age them behind its back (the age is a minute).
 */
const MAX_AGE_MS = 60_000;
let ahead = 0;
const clock = { now: () => new Date(Date.now() + ahead) };
const ageBeyondMaxAge = () => {
  ahead += MAX_AGE_MS + 1000;
};

beforeAll(async () => {
  s3 = await startTestS3();
  server = await startTestServer({ env: s3.env('archive'), archiverOptions: { maxAgeMs: MAX_AGE_MS }, clock, ownDatabase: true });
  user = (await createTenant(server.services, server.url)).owner;
});
afterAll(async () => {
  await server.close();
  await s3.stop();
});

const post = (payload: Record<string, unknown>, headers: Record<string, string> = {}) => user.api.post('/v1/hooks/claude-code', { body: payload, headers });

async function sessionOf(count: number) {
  const session = newSessionId();
  let workstreamId = '';
  for (let i = 0; i < count; i++) {
    const res = await post(fixture('claude-code', 'user-prompt-submit', { session_id: session, prompt: `prompt number ${i}` }), { 'idempotency-key': `${session}-${i}` });
    expectStatus(res, 202);
    workstreamId = res.body.workstream_id;
  }
  return workstreamId;
}

const segmentKeys = async (workstreamId: string) => (await s3.listKeys(`archive/orgs/${user.orgId}/workstreams/${workstreamId}/segments/`)).sort();

async function archivedLines(workstreamId: string) {
  const store = s3.directStore('archive');
  try {
    const lines = [];
    for (const key of await segmentKeys(workstreamId)) {
      const relative = key.replace(/^archive\//, '');
      lines.push(...parseSegment((await store.get(relative))!, relative));
    }
    return lines;
  } finally {
    await store.close();
  }
}

describe('sealing', () => {
  it('seals a session into tenant-prefixed JSONL segments with v1 envelopes, sealing at once on SessionEnd', async () => {
    const session = newSessionId();
    let workstreamId = '';
    for (const payload of claudeSession(session)) workstreamId = bodyOf(await post(payload), 202).workstream_id;
    await server.archiver.runOnce();
    const keys = await segmentKeys(workstreamId);
    expect(keys).toEqual([`archive/orgs/${user.orgId}/workstreams/${workstreamId}/segments/0000000000000001-0000000000000010.jsonl`]);
    const lines = await archivedLines(workstreamId);
    expect(lines.map((line) => line.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(lines[1]).toMatchObject({
      v: 1,
      workstream_id: workstreamId,
      harness: 'claude-code',
      event: 'UserPromptSubmit',
      occurred_at: expect.any(String),
      received_at: expect.any(String),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      payload: { session_id: session, prompt: expect.stringContaining('checkout') },
    });
    expect(Object.keys(lines[0]!).sort()).toEqual(['event', 'event_id', 'harness', 'occurred_at', 'payload', 'received_at', 'sequence', 'sha256', 'v', 'workstream_id']);
    const events = await user.api.get(`/v1/workstreams/${workstreamId}/events?include_lifecycle=true&limit=100`);
    expectStatus(events, 200);
    expect(events.body.events.every((event) => event.archived)).toBe(true);
    expect(bodyOf(await user.api.get(`/v1/workstreams/${workstreamId}`), 200).pending_archive).toBe(0);
    const [rows] = await server.database.pool.query('SELECT COUNT(*) AS n FROM workstream_events WHERE workstream_id = ? AND payload IS NOT NULL', [workstreamId]);
    expect((rows as { n: number }[])[0]!.n).toBe(0);
  });

  it('waits for a partial segment to age, then seals it', async () => {
    const workstreamId = await sessionOf(3);
    await server.archiver.runOnce();
    expect(await segmentKeys(workstreamId)).toEqual([]);
    ageBeyondMaxAge();
    await server.archiver.runOnce();
    expect((await segmentKeys(workstreamId)).map((key) => key.split('/').pop())).toEqual(['0000000000000001-0000000000000003.jsonl']);
  });

  it('cuts segments at 256 events, every event in exactly one segment', async () => {
    const workstreamId = await sessionOf(300);
    await server.archiver.runOnce();
    // The first 256 are a full segment at once; the 44 after it wait for their age.
    expect((await segmentKeys(workstreamId)).map((key) => key.split('/').pop())[0]).toBe('0000000000000001-0000000000000256.jsonl');
    ageBeyondMaxAge();
    await server.archiver.runOnce();
    expect((await segmentKeys(workstreamId)).map((key) => key.split('/').pop())).toEqual([
      '0000000000000001-0000000000000256.jsonl',
      '0000000000000257-0000000000000300.jsonl',
    ]);
    const lines = await archivedLines(workstreamId);
    expect(lines.map((line) => line.sequence)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
  });

  it('never overwrites a stored object', async () => {
    const workstreamId = await sessionOf(2);
    await server.archiver.runOnce(true);
    const [key] = await segmentKeys(workstreamId);
    const store = s3.directStore('archive');
    await expect(store.putImmutable(key!.replace(/^archive\//, ''), Buffer.from('tampered\n'), 'application/x-ndjson')).rejects.toThrow(/already exists/);
    await store.close();
  });
});

describe('object store down, then up', () => {
  it('keeps accepting events while the store is down and archives all of them when it returns', async () => {
    s3.setDown(true);
    const session = newSessionId();
    const receipts = [];
    for (let i = 0; i < 40; i++) {
      const res = await post(fixture('claude-code', 'user-prompt-submit', { session_id: session, prompt: `outage prompt ${i}` }), { 'idempotency-key': `${session}-${i}` });
      expectStatus(res, 202);
      receipts.push(res.body);
    }
    await post(fixture('claude-code', 'session-end', { session_id: session }));
    const workstreamId = receipts[0]!.workstream_id;
    await server.archiver.runOnce(true);
    const [pending] = await server.database.pool.query(
      'SELECT COUNT(*) AS n FROM workstream_events WHERE workstream_id = ? AND payload IS NOT NULL',
      [workstreamId],
    );
    expect((pending as { n: number }[])[0]!.n).toBe(41);
    const [failing] = await server.database.pool.query('SELECT attempts, last_error FROM archive_segments WHERE workstream_id = ?', [workstreamId]);
    expect((failing as { attempts: number }[])[0]!.attempts).toBeGreaterThan(0);

    // The raw download still has everything, from the ledger.
    s3.setDown(false);
    const raw = await user.api.get(`/v1/workstreams/${workstreamId}/raw`);
    expect(raw.text.trim().split('\n')).toHaveLength(41);

    await server.database.pool.query('UPDATE archive_segments SET next_attempt_at = NOW(3) WHERE workstream_id = ?', [workstreamId]);
    await server.archiver.runOnce();
    const lines = await archivedLines(workstreamId);
    expect(lines.map((line) => line.sequence)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
    const [left] = await server.database.pool.query('SELECT COUNT(*) AS n FROM workstream_events WHERE workstream_id = ? AND payload IS NOT NULL', [workstreamId]);
    expect((left as { n: number }[])[0]!.n).toBe(0);
  });
});

describe('GET /v1/workstreams/{id}/raw', () => {
  it('streams the archived JSONL plus what is not archived yet, in sequence order', async () => {
    const workstreamId = await sessionOf(5);
    await server.archiver.runOnce(true);
    for (let i = 5; i < 8; i++) await post(fixture('claude-code', 'user-prompt-submit', { session_id: bodyOf(await user.api.get(`/v1/workstreams/${workstreamId}`), 200).native_session_id, prompt: `later ${i}` }));
    const raw = await user.api.get(`/v1/workstreams/${workstreamId}/raw`);
    expectStatus(raw, 200);
    expect(raw.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = raw.text.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((line) => line.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(lines[7].payload.prompt).toBe('later 7');
  });
});

describe('DELETE /v1/workstreams/{id}', () => {
  it('removes the ledger rows at once and every object under the workstream', async () => {
    const workstreamId = await sessionOf(4);
    await server.archiver.runOnce(true);
    expect(await s3.listKeys(`archive/orgs/${user.orgId}/workstreams/${workstreamId}/`)).toHaveLength(2);
    expect(bodyOf(await user.api.get('/v1/workstreams/search?q=prompt%20number'), 200).results.some((r) => r.workstream_id === workstreamId)).toBe(true);

    const res = await user.api.delete(`/v1/workstreams/${workstreamId}`);
    expectStatus(res, 204);
    expect(await s3.listKeys(`archive/orgs/${user.orgId}/workstreams/${workstreamId}/`)).toEqual([]);
    expect((await user.api.get(`/v1/workstreams/${workstreamId}`)).status).toBe(404);
    const search = await user.api.get('/v1/workstreams/search?q=prompt%20number&limit=50');
    expectStatus(search, 200);
    expect(search.body.results.some((r) => r.workstream_id === workstreamId)).toBe(false);
    for (const table of ['workstream_events', 'archive_segments']) {
      const [rows] = await server.database.pool.query(`SELECT COUNT(*) AS n FROM ${table} WHERE workstream_id = ?`, [workstreamId]);
      expect((rows as { n: number }[])[0]!.n).toBe(0);
    }
  });

  it('retries object deletion after a store outage until nothing is left', async () => {
    const workstreamId = await sessionOf(3);
    await server.archiver.runOnce(true);
    s3.setDown(true);
    expect((await user.api.delete(`/v1/workstreams/${workstreamId}`)).status).toBe(204);
    expect(await s3.listKeys(`archive/orgs/${user.orgId}/workstreams/${workstreamId}/`)).toHaveLength(2);
    const [queued] = await server.database.pool.query('SELECT COUNT(*) AS n FROM archive_deletions WHERE object_key LIKE ?', [`%${workstreamId}%`]);
    expect((queued as { n: number }[])[0]!.n).toBe(2);
    s3.setDown(false);
    await server.database.pool.query('UPDATE archive_deletions SET next_attempt_at = NOW(3) WHERE object_key LIKE ?', [`%${workstreamId}%`]);
    await server.archiver.runOnce();
    expect(await s3.listKeys(`archive/orgs/${user.orgId}/workstreams/${workstreamId}/`)).toEqual([]);
    const [left] = await server.database.pool.query('SELECT COUNT(*) AS n FROM archive_deletions WHERE object_key LIKE ?', [`%${workstreamId}%`]);
    expect((left as { n: number }[])[0]!.n).toBe(0);
  });
});

describe('two API processes, one database and one bucket', () => {
  it('keep sequences gapless and put every event in exactly one segment', async () => {
    const shared = { env: s3.env('archive'), databaseUrl: server.config.DATABASE_URL, archiverOptions: { maxAgeMs: 100, intervalMs: 50 }, startArchiver: true };
    const other = await startTestServer(shared);
    const mine = await startTestServer(shared);
    try {
      const session = newSessionId();
      const servers = [mine, other];
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          fetch(`${servers[i % 2]!.url}/v1/hooks/claude-code`, {
            method: 'POST',
            headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json', 'idempotency-key': `${session}-${i}` },
            body: JSON.stringify(fixture('claude-code', 'user-prompt-submit', { session_id: session, prompt: `two processes ${i}` })),
          }).then(async (res) => ({ status: res.status, body: (await res.json()) as { sequence: number; workstream_id: string } })),
        ),
      );
      expect(results.every((r) => r.status === 202)).toBe(true);
      expect(results.map((r) => r.body.sequence).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      const workstreamId = results[0]!.body.workstream_id;
      await expect
        .poll(async () => bodyOf(await user.api.get(`/v1/workstreams/${workstreamId}`), 200).pending_archive, { timeout: 15_000, interval: 200 })
        .toBe(0);
      await expect.poll(async () => (await archivedLines(workstreamId)).length, { timeout: 15_000, interval: 200 }).toBe(200);
      const lines = await archivedLines(workstreamId);
      expect(lines.map((line) => line.sequence)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    } finally {
      await other.close();
      await mine.close();
    }
  });
});

describe('a live process storing a segment', () => {
  it('keeps its claim by renewing a short lease, so others leave it alone', async () => {
    const leaseMs = 3000;
    const holder = await startTestServer({ env: s3.env('archive'), databaseUrl: server.config.DATABASE_URL, archiverOptions: { leaseMs } });
    let storing: Promise<void> | undefined;
    try {
      const session = newSessionId();
      let workstreamId = '';
      for (const payload of claudeSession(session)) workstreamId = bodyOf(await post(payload), 202).workstream_id;
      s3.setDown(true, 'blackhole'); // the upload hangs: the holder is alive, just slow
      storing = holder.archiver.runOnce();
      const lease = async () => {
        const [rows] = await server.database.pool.query('SELECT next_attempt_at AS until FROM archive_segments WHERE workstream_id = ? AND uploaded_at IS NULL', [workstreamId]);
        return (rows as { until: Date }[])[0]?.until.getTime() ?? 0;
      };
      await expect.poll(lease, { timeout: 20_000, interval: 50 }).toBeGreaterThan(0);
      const claimedUntil = await lease();
      // Renewed past two whole leases: without the heartbeat it would have lapsed after one.
      await expect.poll(lease, { timeout: 20_000, interval: 100 }).toBeGreaterThan(claimedUntil + 2 * leaseMs);
      const [due] = await server.database.pool.query('SELECT COUNT(*) AS n FROM archive_segments WHERE workstream_id = ? AND uploaded_at IS NULL AND next_attempt_at <= NOW(3)', [workstreamId]);
      expect((due as { n: number }[])[0]!.n).toBe(0);
    } finally {
      s3.setDown(false);
      await storing;
      await holder.close();
    }
  }, 90_000);
});

describe('filesystem driver', () => {
  it('archives to ARCHIVE_URL=file://… by default', async () => {
    const local = await startTestServer({ ownDatabase: true });
    try {
      const owner = (await createTenant(local.services, local.url)).owner;
      const session = newSessionId();
      let workstreamId = '';
      for (const payload of claudeSession(session)) workstreamId = bodyOf(await owner.api.post('/v1/hooks/claude-code', { body: payload }), 202).workstream_id;
      await local.archiver.runOnce();
      const directory = new URL(local.config.ARCHIVE_URL).pathname;
      const body = await readFile(`${directory}/orgs/${owner.orgId}/workstreams/${workstreamId}/segments/0000000000000001-0000000000000010.jsonl`);
      expect(parseSegment(body, 'segment')).toHaveLength(10);
    } finally {
      await local.close();
    }
  });
});
