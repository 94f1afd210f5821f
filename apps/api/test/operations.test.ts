import { readFileSync } from 'node:fs';
import { API_KEY_SCOPES } from '@memory-bank/db';
import { MIGRATIONS_FOLDER, dropDatabase, ensureDatabase, migrateDatabase, migrationStatus, openDatabase } from '@memory-bank/db/system';
import mysql from 'mysql2/promise';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { SERVICE_INFO } from '../src/app';
import { freshDatabaseUrl } from './support/database';
import { fixture, newSessionId } from './support/hooks';
import { request } from './support/http';
import { runPnpm, startService, stopService } from './support/process';
import { startTestServer } from './support/server';

const created: string[] = [];
const fresh = (label: string) => {
  const url = freshDatabaseUrl(inject('databaseServerUrl'), label);
  created.push(url);
  return url;
};
afterAll(async () => {
  for (const url of created) await dropDatabase(url);
});

describe('migrations', () => {
  it('create the schema with its FULLTEXT indexes, are idempotent and safe to run concurrently', async () => {
    const url = fresh('mig');
    await ensureDatabase(url);
    const handle = openDatabase(url, { poolSize: 4 });
    try {
      const journal = JSON.parse(readFileSync(`${MIGRATIONS_FOLDER}/meta/_journal.json`, 'utf8')) as { entries: { tag: string }[] };
      const tags = journal.entries.map((entry) => entry.tag);
      expect(tags.slice(0, 3)).toEqual(['0000_charset', '0001_init', '0002_fulltext']);
      expect((await migrationStatus(handle.db)).pending).toEqual(tags);
      await Promise.all([migrateDatabase(handle.pool), migrateDatabase(handle.pool), migrateDatabase(handle.pool)]);
      await migrateDatabase(handle.pool);
      expect(await migrationStatus(handle.db)).toEqual({ applied: tags.length, pending: [] });
      const [indexes] = await handle.pool.query<mysql.RowDataPacket[]>(
        `SELECT INDEX_NAME AS name, COLUMN_NAME AS col FROM information_schema.STATISTICS
         WHERE TABLE_SCHEMA = DATABASE() AND INDEX_TYPE = 'FULLTEXT' ORDER BY INDEX_NAME`,
      );
      expect(indexes.map((row) => `${row.name}(${row.col})`)).toEqual([
        'ft_memory_content(content)',
        'ft_memory_search_terms(search_terms)',
        'ft_workstream_events_search_terms(search_terms)',
      ]);
      const [charset] = await handle.pool.query<mysql.RowDataPacket[]>(
        `SELECT DEFAULT_CHARACTER_SET_NAME AS cs FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = DATABASE()`,
      );
      expect(charset[0]!.cs).toBe('utf8mb4');
    } finally {
      await handle.close();
    }
  });
});

describe('pnpm start', () => {
  it('creates the database, migrates, listens on PORT and prints where the API reference is', async () => {
    const url = fresh('start');
    const service = await startService({ DATABASE_URL: url, PORT: '0', LOG_LEVEL: 'info', MEMORY_BANK_OPERATOR_TOKEN: '' });
    try {
      // The banner is for people, on stderr; stdout carries JSON log lines only.
      expect(service.stderr()).toMatch(/API reference: http:\/\/\S+\/docs/);
      // No operator token: the banner says the provisioning route is off and how to turn it on.
      expect(service.stderr()).toContain('POST /v1/admin/orgs is off: set MEMORY_BANK_OPERATOR_TOKEN');
      // The two streams arrive in any order.
      await expect.poll(() => service.stdout().includes('"msg":"listening"')).toBe(true);
      const lines = service.stdout().split('\n').filter((line) => line !== '');
      const logs = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const journal = JSON.parse(readFileSync(`${MIGRATIONS_FOLDER}/meta/_journal.json`, 'utf8')) as { entries: { tag: string }[] };
      expect(logs.find((log) => log.msg === 'database ready')).toMatchObject({
        database: `${new URL(url).host}${new URL(url).pathname}`,
        created: true,
        migrations_applied: journal.entries.map((entry) => entry.tag),
      });
      expect(logs.find((log) => log.msg === 'listening')).toMatchObject({ url: service.url, docs: `${service.url}/docs` });
      const ready = await fetch(`${service.url}/readyz`);
      expect(ready.status).toBe(200);
      expect((await fetch(`${service.url}/docs`)).status).toBe(200);
    } finally {
      const stopped = await stopService(service.child);
      expect(stopped.code === 0 || stopped.signal === 'SIGTERM').toBe(true);
    }
  });

  it('says at the next start that the database existed and nothing was applied', async () => {
    const url = fresh('restart');
    await ensureDatabase(url);
    const handle = openDatabase(url, { poolSize: 1 });
    await migrateDatabase(handle.pool).finally(() => handle.close());
    const service = await startService({ DATABASE_URL: url, PORT: '0', LOG_LEVEL: 'info' });
    try {
      const readyLine = () => service.stdout().split('\n').find((line) => line.includes('"msg":"database ready"'));
      await expect.poll(readyLine).toBeDefined();
      expect(JSON.parse(readyLine()!)).toMatchObject({ created: false, migrations_applied: [] });
    } finally {
      await stopService(service.child);
    }
  });

  it('refuses to start on a bad variable, naming it', async () => {
    const result = await runPnpm(['start'], { PORT: 'eighty' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/PORT/);
  });
});

describe('pnpm cli', () => {
  it('runs the operator flows without HTTP', async () => {
    const env = { DATABASE_URL: inject('databaseUrl') };
    const org = await runPnpm(['cli', 'orgs', 'create', '--name', 'CLI Org', '--owner-email', 'cli-owner@example.test'], env);
    expect(org.code, org.stderr).toBe(0);
    const provisioned = JSON.parse(org.stdout);
    expect(provisioned).toMatchObject({ org: { name: 'CLI Org' }, user: { role: 'owner' }, api_key: { key: expect.stringMatching(/^mbk_/) } });

    const member = JSON.parse((await runPnpm(['cli', 'members', 'add', '--org', provisioned.org.id, '--email', 'cli-member@example.test'], env)).stdout);
    expect(member).toMatchObject({ user: { role: 'member' }, api_key: { scopes: API_KEY_SCOPES.filter((scope) => scope !== 'admin') } });

    const key = JSON.parse(
      (await runPnpm(['cli', 'keys', 'create', '--user', member.user.id, '--name', 'reader', '--scopes', 'memory:read'], env)).stdout,
    );
    expect(key).toMatchObject({ name: 'reader', scopes: ['memory:read'], key: expect.stringMatching(/^mbk_/) });

    const revoked = await runPnpm(['cli', 'keys', 'revoke', '--key', key.id], env);
    expect(revoked.code).toBe(0);
    const listed = JSON.parse((await runPnpm(['cli', 'keys', 'list', '--user', member.user.id], env)).stdout);
    expect(listed.api_keys.find((k: { id: string }) => k.id === key.id).revoked_at).toEqual(expect.any(String));

    const bad = await runPnpm(['cli', 'members', 'add', '--org', provisioned.org.id, '--email', 'not-an-email'], env);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toMatch(/email/);
    const missing = await runPnpm(['cli', 'keys', 'revoke', '--key', 'key_01ARZ3NDEKTSV4RRFFQ69G5FAV'], env);
    expect(missing.code).toBe(1);
    // Seven CLI processes, each a cold Node start: on a loaded 2-core machine that alone
    // can take half a minute. The bound catches a hang, not slowness.
  }, 120_000);

  it('says what to do when the database has no schema yet', async () => {
    const url = new URL(inject('databaseUrl'));
    url.pathname = `/mb_never_created_${Date.now().toString(36)}`;
    const result = await runPnpm(['cli', 'orgs', 'create', '--name', 'Too early', '--owner-email', 'early@example.test'], { DATABASE_URL: url.toString() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/pnpm cli db migrate/);
    // It names the database it read (host:port/name, no credentials) and where that came from.
    expect(result.stderr).toContain(`The database ${url.host}${url.pathname} (DATABASE_URL) has no Memory Bank schema`);
    expect(result.stderr).toMatch(/same DATABASE_URL/);
  });
});

describe('pnpm cli for operators', () => {
  it('prints its version and each command\'s help without touching the database', async () => {
    const env = { DATABASE_URL: 'mysql://nobody@127.0.0.1:1/unreachable' };
    const version = await runPnpm(['cli', '--version'], env);
    expect(version.code).toBe(0);
    expect(version.stdout.trim().split('\n').at(-1)).toBe(`memory-bank ${SERVICE_INFO.version}`);
    const help = await runPnpm(['cli', 'ledger', 'rebuild', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('pnpm cli ledger rebuild [--org <org_id>] [--workstream <ws_id>]');
    expect(help.stdout).toMatch(/Progress on stderr/);
    expect(help.stdout).not.toContain('keys create');
  }, 60_000);

  it('shows progress of a ledger rebuild on stderr and names what doctor checked', async () => {
    const operator = 'operator-token-cli-progress-0123456789';
    const server = await startTestServer({ ownDatabase: true, env: { MEMORY_BANK_OPERATOR_TOKEN: operator } });
    try {
      const provisioned = await request(server.url, 'POST', '/v1/admin/orgs', { key: operator, body: { name: 'rebuild', owner: { email: 'rebuild@example.test' } } });
      const key = provisioned.body.api_key.key as string;
      const session = newSessionId();
      for (const name of ['session-start', 'user-prompt-submit', 'stop']) {
        expect((await request(server.url, 'POST', '/v1/hooks/claude-code', { key, body: fixture('claude-code', name, { session_id: session }) })).status).toBe(202);
      }
      await server.archiver.runOnce(true);
      const env = { DATABASE_URL: server.config.DATABASE_URL, ARCHIVE_URL: server.config.ARCHIVE_URL };

      const rebuilt = await runPnpm(['cli', 'ledger', 'rebuild', '--org', provisioned.body.org.id], env);
      expect(rebuilt.code, rebuilt.stderr).toBe(0);
      expect(JSON.parse(rebuilt.stdout.slice(rebuilt.stdout.indexOf('{')))).toMatchObject({ workstreams: 1, segments: 1, events: 3, skipped: [] });
      expect(rebuilt.stderr).toMatch(/^ledger rebuild: 1\/1 segments \(100%\), 3 events, [\d,]+ segments\/s, \d+\.\d s$/m);

      const doctor = await runPnpm(['cli', 'doctor'], env);
      const report = JSON.parse(doctor.stdout.slice(doctor.stdout.indexOf('{')));
      const database = new URL(server.config.DATABASE_URL);
      expect(report.checked).toEqual({ database: `${database.host}${database.pathname}`, archive: server.store.description });
      expect(report.checked.archive).toMatch(/^filesystem \//);
      expect(doctor.stdout).not.toMatch(/password/i);
    } finally {
      await server.close();
    }
  }, 120_000);
});
