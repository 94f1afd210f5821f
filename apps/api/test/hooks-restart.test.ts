import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseSegment } from '../src/archive/segment';
import { fixture, newSessionId } from './support/hooks';
import { request } from './support/http';
import { startService, stopService } from './support/process';
import { startTestS3 } from './support/s3';
import { createMigratedDatabase } from './support/database';

const OPERATOR = 'operator-token-restart-test-0123456789';
let archive: string;
let env: Record<string, string>;
let pool: mysql.Pool;

let database: { url: string; drop(): Promise<void> };

// Real processes run the archiver, which seals every pending workstream of its database:
// this suite has a database of its own.
beforeAll(async () => {
  database = await createMigratedDatabase(inject('databaseServerUrl'), 'restart');
  archive = await mkdtemp(join(tmpdir(), 'mb-restart-'));
  env = { DATABASE_URL: database.url, PORT: '0', LOG_LEVEL: 'warn', ARCHIVE_URL: `file://${archive}`, MEMORY_BANK_OPERATOR_TOKEN: OPERATOR };
  pool = mysql.createPool({ uri: database.url, connectionLimit: 2 });
});
afterAll(async () => {
  await pool.end();
  await database.drop();
  await rm(archive, { recursive: true, force: true });
});

/** The sequences archived in `directory` for one workstream (the other tests' share the directory). */
async function segmentLines(directory: string, workstreamId: string): Promise<number[]> {
  const files = (await readdir(directory, { recursive: true, withFileTypes: true }).catch(() => []))
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl') && entry.parentPath.includes(workstreamId))
    .map((entry) => join(entry.parentPath, entry.name));
  const sequences: number[] = [];
  for (const file of files) sequences.push(...parseSegment(await readFile(file), file).map((line) => line.sequence));
  return sequences.sort((a, b) => a - b);
}

describe('two API processes sharing one database and one bucket', () => {
  it('keep every workstream gapless and archive every event exactly once', async () => {
    const s3 = await startTestS3();
    const shared = { ...env, ...s3.env('two') };
    const [a, b] = await Promise.all([startService(shared), startService(shared)]);
    try {
      const provisioned = await request(a.url, 'POST', '/v1/admin/orgs', { key: OPERATOR, body: { name: 'two', owner: { email: 'two@example.test' } } });
      const key = provisioned.body.api_key.key as string;
      const sessions = [newSessionId(), newSessionId(), newSessionId()];
      const results = await Promise.all(
        Array.from({ length: 150 }, (_, i) =>
          request([a, b][i % 2]!.url, 'POST', '/v1/hooks/claude-code', {
            key,
            body: fixture('claude-code', 'user-prompt-submit', { session_id: sessions[i % 3], prompt: `shared ${i}` }),
            headers: { 'idempotency-key': `two-${i}` },
          }),
        ),
      );
      expect(results.every((r) => r.status === 202)).toBe(true);
      const byWorkstream = new Map<string, number[]>();
      for (const r of results) byWorkstream.set(r.body.workstream_id, [...(byWorkstream.get(r.body.workstream_id) ?? []), r.body.sequence]);
      expect(byWorkstream.size).toBe(3);
      for (const sequences of byWorkstream.values()) expect(sequences.sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));

      for (const session of sessions) await request(b.url, 'POST', '/v1/hooks/claude-code', { key, body: fixture('claude-code', 'session-end', { session_id: session }) });
      const archivedSequences = async () => {
        const store = s3.directStore('two');
        try {
          const keys = await store.list('orgs/');
          const lines = [];
          for (const objectKey of keys.filter((k) => k.endsWith('.jsonl'))) lines.push(...parseSegment((await store.get(objectKey))!, objectKey));
          return lines.map((line) => `${line.workstream_id}:${line.sequence}`).sort();
        } finally {
          await store.close();
        }
      };
      const expected = [...byWorkstream.keys()].flatMap((id) => Array.from({ length: 51 }, (_, i) => `${id}:${i + 1}`)).sort();
      await expect.poll(archivedSequences, { timeout: 20_000, interval: 250 }).toEqual(expected);
    } finally {
      await Promise.all([stopService(a.child), stopService(b.child)]);
      await s3.stop();
    }
    // Two processes started, 150 posts, archiving: 13–30 s when other jobs load the machine.
  }, 60_000);
});

describe('a process killed with events pending', () => {
  it('loses nothing: the next process seals what the dead one acknowledged', async () => {
    const first = await startService(env);
    const provisioned = await request(first.url, 'POST', '/v1/admin/orgs', { key: OPERATOR, body: { name: 'restart', owner: { email: 'restart@example.test' } } });
    const key = provisioned.body.api_key.key as string;
    const session = newSessionId();
    let workstreamId = '';
    for (let i = 0; i < 20; i++) {
      const res = await request(first.url, 'POST', '/v1/hooks/claude-code', {
        key,
        body: fixture('claude-code', 'user-prompt-submit', { session_id: session, prompt: `before the crash ${i}` }),
        headers: { 'idempotency-key': `${session}-${i}` },
      });
      expect(res.status).toBe(202);
      workstreamId = res.body.workstream_id;
    }
    process.kill(-first.child.pid!, 'SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const [pending] = await pool.query('SELECT COUNT(*) AS n FROM workstream_events WHERE workstream_id = ? AND payload IS NOT NULL', [workstreamId]);
    expect((pending as { n: number }[])[0]!.n).toBe(20);
    expect(await segmentLines(archive, workstreamId)).toEqual([]);

    const second = await startService(env);
    try {
      await expect.poll(() => segmentLines(archive, workstreamId), { timeout: 20_000, interval: 250 }).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      const ws = await request(second.url, 'GET', `/v1/workstreams/${workstreamId}`, { key });
      expect(ws.body).toMatchObject({ event_count: 20, pending_archive: 0 });
    } finally {
      await stopService(second.child);
    }
  });

  it('seals everything pending on a graceful stop, without waiting for segments to age', async () => {
    const service = await startService(env);
    const provisioned = await request(service.url, 'POST', '/v1/admin/orgs', { key: OPERATOR, body: { name: 'graceful', owner: { email: 'graceful@example.test' } } });
    const key = provisioned.body.api_key.key as string;
    const res = await request(service.url, 'POST', '/v1/hooks/claude-code', { key, body: fixture('claude-code', 'user-prompt-submit', { session_id: newSessionId() }) });
    await stopService(service.child);
    const [rows] = await pool.query('SELECT pending_count, archived_through FROM workstreams WHERE id = ?', [res.body.workstream_id]);
    expect((rows as Record<string, number>[])[0]).toMatchObject({ pending_count: 0, archived_through: 1 });
  });
});

describe('a process killed while storing segments', () => {
  it('leaves its claims to the next process, which stores them within 10 s', async () => {
    const s3 = await startTestS3();
    const shared = { ...env, ...s3.env('crash') };
    // Uploads hang: the first process claims segments and is stuck storing them when it dies.
    s3.setDown(true, 'blackhole');
    const first = await startService(shared);
    let second: Awaited<ReturnType<typeof startService>> | undefined;
    try {
      const provisioned = await request(first.url, 'POST', '/v1/admin/orgs', { key: OPERATOR, body: { name: 'crash', owner: { email: 'crash@example.test' } } });
      const key = provisioned.body.api_key.key as string;
      const session = newSessionId();
      let workstreamId = '';
      for (let i = 0; i < 30; i++) {
        const res = await request(first.url, 'POST', '/v1/hooks/claude-code', {
          key,
          body: fixture('claude-code', 'user-prompt-submit', { session_id: session, prompt: `claimed before the crash ${i}` }),
          headers: { 'idempotency-key': `${session}-${i}` },
        });
        expect(res.status).toBe(202);
        workstreamId = res.body.workstream_id;
      }
      // The session ends: the archiver claims its segment at once, then hangs uploading it.
      await request(first.url, 'POST', '/v1/hooks/claude-code', { key, body: fixture('claude-code', 'session-end', { session_id: session }) });
      const claimed = async () => {
        const [rows] = await pool.query('SELECT object_key AS `key` FROM archive_segments WHERE workstream_id = ? AND uploaded_at IS NULL', [workstreamId]);
        return (rows as { key: string }[]).map((row) => row.key);
      };
      await expect.poll(claimed, { timeout: 20_000, interval: 100 }).not.toEqual([]);
      const keys = await claimed();

      process.kill(-first.child.pid!, 'SIGKILL');
      await new Promise((resolve) => first.child.once('exit', resolve));
      s3.setDown(false);

      second = await startService(shared);
      const running = Date.now();
      const stored = async () => {
        const [rows] = await pool.query('SELECT COUNT(*) AS n FROM archive_segments WHERE object_key IN (?) AND uploaded_at IS NOT NULL', [keys]);
        return (rows as { n: number }[])[0]!.n;
      };
      // Polled well past the bound, so a failure reports how late the claims were stored.
      await expect.poll(stored, { timeout: 90_000, interval: 100 }).toBe(keys.length);
      expect(Date.now() - running).toBeLessThanOrEqual(10_000);
      expect((await s3.listKeys()).filter((objectKey) => objectKey.endsWith('.jsonl'))).toHaveLength(keys.length);
    } finally {
      if (second) await stopService(second.child);
      if (first.child.exitCode === null && first.child.signalCode === null) process.kill(-first.child.pid!, 'SIGKILL');
      await s3.stop();
    }
  }, 150_000);
});
