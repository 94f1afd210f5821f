import { dropDatabase } from '@memory-bank/db/system';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pino } from 'pino';
import { runDoctor } from '../src/archive/doctor';
import { rebuildLedger } from '../src/archive/rebuild';
import { createMigratedDatabase } from './support/database';
import { claudeSession, fixture, newSessionId } from './support/hooks';
import { runPnpm } from './support/process';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';
import { bodyOf } from './support/http';

// Doctor breaks things on purpose (drops an index), so this suite has a database of its own.
let databaseUrl: string;
let server: TestServer;
let user: TestUser;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  databaseUrl = (await createMigratedDatabase(inject('databaseServerUrl'), 'tools')).url;
  server = await startTestServer({ databaseUrl });
  user = (await createTenant(server.services, server.url)).owner;
});
afterAll(async () => {
  await server.close();
  await dropDatabase(databaseUrl);
});

const LEDGER_COLUMNS = 'sequence, event_id, kind, role, event, lifecycle_only, tool_use_id, tool_name, outcome, content, occurred_at, received_at, content_sha256, payload_sha256, payload_bytes, segment_key';

async function ledgerRows(workstreamId: string) {
  const [rows] = await server.database.pool.query(`SELECT ${LEDGER_COLUMNS} FROM workstream_events WHERE workstream_id = ? ORDER BY sequence`, [workstreamId]);
  return rows as Record<string, unknown>[];
}

async function archivedSession(): Promise<string> {
  const session = newSessionId();
  let workstreamId = '';
  for (const payload of claudeSession(session)) workstreamId = bodyOf(await user.api.post('/v1/hooks/claude-code', { body: payload }), 202).workstream_id;
  for (const harness of ['generic'] as const) await user.api.post(`/v1/hooks/${harness}`, { body: fixture(harness, 'tool-error') });
  await server.archiver.runOnce(true);
  return workstreamId;
}

const doctor = (repair: boolean) =>
  runDoctor(
    { db: server.database.db, store: server.store, archiver: server.archiver, clock: { now: () => new Date() }, logger: silent, migrate: async () => {} },
    { repair },
  );

describe('ledger rebuild', () => {
  it('rebuilds deleted ledger rows from the segments alone, equal to the originals', async () => {
    const workstreamId = await archivedSession();
    const original = await ledgerRows(workstreamId);
    expect(original).toHaveLength(10);
    const searchBefore = bodyOf(await user.api.get('/v1/workstreams/search?q=express'), 200).results.length;

    await server.database.pool.query('DELETE FROM workstream_events WHERE workstream_id = ?', [workstreamId]);
    expect(await ledgerRows(workstreamId)).toEqual([]);

    const report = await rebuildLedger({ db: server.database.db, store: server.store, logger: silent }, { workstreamId });
    expect(report).toMatchObject({ workstreams: 1, segments: 1, events: 10, skipped: [] });
    expect(await ledgerRows(workstreamId)).toEqual(original);
    expect(bodyOf(await user.api.get('/v1/workstreams/search?q=express'), 200).results.length).toBe(searchBefore);
  });

  it('recreates a lost workstream row from the manifest, via the CLI', async () => {
    const workstreamId = await archivedSession();
    const original = await ledgerRows(workstreamId);
    await server.database.pool.query('DELETE FROM workstreams WHERE id = ?', [workstreamId]);
    const cli = await runPnpm(['cli', 'ledger', 'rebuild', '--org', user.orgId], {
      DATABASE_URL: databaseUrl,
      ARCHIVE_URL: server.config.ARCHIVE_URL,
    });
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ skipped: [] });
    expect(await ledgerRows(workstreamId)).toEqual(original);
    const ws = await user.api.get(`/v1/workstreams/${workstreamId}`);
    expect(ws.body).toMatchObject({ event_count: 10, harness: 'claude-code' });
  });
});

describe('doctor', () => {
  it('reports a healthy system, then each kind of damage, and repairs what it can', async () => {
    await archivedSession();
    const healthy = await doctor(false);
    expect(healthy.findings.filter((f) => !f.ok)).toEqual([]);
    expect(healthy.ok).toBe(true);

    // Damage: a dropped FULLTEXT index, an orphan under a deleted org, lost ledger rows.
    await server.database.pool.query('DROP INDEX ft_workstream_events_search_terms ON workstream_events');
    await server.store.putImmutable('orgs/org_01ARZ3NDEKTSV4RRFFQ69G5FAV/workstreams/ws_01ARZ3NDEKTSV4RRFFQ69G5FAV/workstream.json', Buffer.from('{}\n'), 'application/json');
    const lost = await archivedSession();
    await server.database.pool.query('DELETE FROM workstream_events WHERE workstream_id = ? AND sequence > 5', [lost]);

    const sick = await doctor(false);
    expect(sick.ok).toBe(false);
    const byCheck = Object.fromEntries(sick.findings.map((f) => [f.check, f]));
    expect(byCheck.fulltext).toMatchObject({ ok: false, detail: expect.stringContaining('ft_workstream_events_search_terms') });
    expect(byCheck.segments).toMatchObject({ ok: false, detail: expect.stringContaining('ledger row') });
    expect(byCheck.orphans).toMatchObject({ ok: false, detail: expect.stringContaining('1 left over') });
    expect(byCheck.migrations?.ok).toBe(true);

    const cli = await runPnpm(['cli', 'doctor'], { DATABASE_URL: databaseUrl, ARCHIVE_URL: server.config.ARCHIVE_URL });
    expect(cli.code).toBe(1);

    const repaired = await doctor(true);
    expect(repaired.findings.filter((f) => !f.ok)).toEqual([]);
    expect((await ledgerRows(lost)).map((row) => row.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await doctor(false)).toMatchObject({ ok: true });

    const fine = await runPnpm(['cli', 'doctor'], { DATABASE_URL: databaseUrl, ARCHIVE_URL: server.config.ARCHIVE_URL });
    expect(fine.code, fine.stdout).toBe(0);
  });

  it('still reports every check when the object store cannot be reached', async () => {
    const refused = async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:9000');
    };
    const down = new Proxy(server.store, { get: (store, name) => (name === 'list' || name === 'get' ? refused : Reflect.get(store, name)) });
    const report = await runDoctor(
      { db: server.database.db, store: down, archiver: server.archiver, clock: { now: () => new Date() }, logger: silent, migrate: async () => {} },
      { repair: false },
    );
    expect(report.ok).toBe(false);
    expect(report.findings.map((f) => f.check)).toEqual(['migrations', 'fulltext', 'search_statistics', 'archive_backlog', 'segments', 'orphans', 'maintenance']);
    expect(report.findings.find((f) => f.check === 'migrations')).toMatchObject({ ok: true });
    expect(report.findings.find((f) => f.check === 'orphans')).toMatchObject({ ok: false, detail: expect.stringMatching(/^could not be checked: .*ECONNREFUSED/) });
  });

  it('reports events waiting for the archive and seals them with --repair', async () => {
    const session = newSessionId();
    await user.api.post('/v1/hooks/claude-code', { body: fixture('claude-code', 'user-prompt-submit', { session_id: session }) });
    await server.database.pool.query("UPDATE workstreams SET pending_since = NOW(3) - INTERVAL 5 MINUTE WHERE native_session_id = ?", [session]);
    const stale = await doctor(false);
    expect(stale.findings.find((f) => f.check === 'archive_backlog')).toMatchObject({ ok: false, detail: expect.stringMatching(/1 events pending archive \(oldest 3\d\d s old\)/) });
    const fixed = await doctor(true);
    expect(fixed.findings.find((f) => f.check === 'archive_backlog')).toMatchObject({ ok: true, repaired: expect.any(String) });
  });
});
