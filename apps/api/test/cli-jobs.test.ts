import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { archiveDeletions, newId } from '@memory-bank/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PurgeProgress } from '../src/archive/sealer';
import { fixture, newSessionId } from './support/hooks';
import { client, expectStatus } from './support/http';
import { runPnpm } from './support/process';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant } from './support/tenants';

/** The JSON document `pnpm cli` prints after pnpm's own header lines. */
const jsonOf = (stdout: string) => JSON.parse(stdout.slice(stdout.indexOf('\n{') + 1));

let server: TestServer;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), 'mb-cli-jobs-'));

beforeAll(async () => {
  // Its own database: the archiver seals every pending workstream of its database.
  server = await startTestServer({ ownDatabase: true });
  env = { DATABASE_URL: server.config.DATABASE_URL, ARCHIVE_URL: server.config.ARCHIVE_URL };
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function contents(api: TestTenant['owner']['api']): Promise<string[]> {
  const page = await api.get('/v1/memory?limit=100');
  expectStatus(page, 200);
  return page.body.memories.map((memory) => memory.content).sort();
}

describe('pnpm cli memory export / import', () => {
  it('exports a user to a file and imports it into another user with progress on stderr; a second import adds nothing', async () => {
    const tenant = await createTenant(server.services, server.url, 'cli transfer');
    const added = await server.services.operator.addMember(tenant.orgId, { email: 'importer@example.test', role: 'member' }, 'test-setup');
    const member = { userId: added.user.id, api: client(server.url, added.apiKey.key) };
    const saved = ['Deploys go out on Thursdays', 'The staging database is pg-14', 'Prefer tabs over spaces'];
    for (const content of saved) expect((await tenant.owner.api.post('/v1/memory', { body: { content, tags: ['cli'] } })).status).toBe(201);

    const file = join(dir, 'owner.ndjson');
    const exported = await runPnpm(['cli', 'memory', 'export', '--org', tenant.orgId, '--user', tenant.owner.userId, '--scope', 'user', file], env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(jsonOf(exported.stdout)).toEqual({ exported: 3, file });
    expect(exported.stderr).toMatch(/^memory export: 3 memories, [\d,]+ memories\/s, \d+\.\d s$/m);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3);

    // A bad line among good ones: reported by number, the others imported.
    appendFileSync(file, '{"content": ""}\nnot json\n');
    const imported = await runPnpm(['cli', 'memory', 'import', '--org', tenant.orgId, '--user', 'Importer@Example.test', file], env);
    expect(imported.code, imported.stderr).toBe(1);
    const summary = jsonOf(imported.stdout);
    expect(summary).toMatchObject({ imported: 3, skipped: 0, failed: 2, skipped_lines: [], complete: true, last_line: 5 });
    expect(summary.failures.map((failure: { line: number; code: string }) => [failure.line, failure.code])).toEqual([
      [4, 'validation_failed'],
      [5, 'validation_failed'],
    ]);
    expect(imported.stderr).toMatch(/^line 4: validation_failed: /m);
    expect(imported.stderr).toMatch(/^line 5: validation_failed: Line 5 is not JSON$/m);
    expect(imported.stderr).toMatch(/^memory import: 5 lines, 3 imported, 0 skipped, 2 failed, [\d,]+ lines\/s, \d+\.\d s$/m);
    expect(await contents(member.api)).toEqual([...saved].sort());

    const again = await runPnpm(['cli', 'memory', 'import', '--org', tenant.orgId, '--user', member.userId, file], env);
    expect(jsonOf(again.stdout)).toMatchObject({ imported: 0, skipped: 3, failed: 2, skipped_lines: [1, 2, 3] });
    expect(await contents(member.api)).toEqual([...saved].sort());

    // The operator did it, on the member's behalf; the trail says so.
    const audit = await tenant.owner.api.get('/v1/admin/audit?action=memory.import');
    expectStatus(audit, 200);
    expect(audit.body.events).toHaveLength(2);
    expect(audit.body.events[0]).toMatchObject({ actor: { type: 'operator', user_id: null, key_id: null }, target: { type: 'user', id: member.userId } });
  }, 120_000);

  it('answers a user of another org as not found, and explains its arguments', async () => {
    const one = await createTenant(server.services, server.url, 'cli one');
    const other = await createTenant(server.services, server.url, 'cli other');
    const file = join(dir, 'empty.ndjson');
    appendFileSync(file, '{"content":"never stored"}\n');
    const denied = await runPnpm(['cli', 'memory', 'import', '--org', one.orgId, '--user', other.owner.userId, file], env);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/User .*not found|not_found/i);
    expect(await contents(other.owner.api)).toEqual([]);

    const missing = await runPnpm(['cli', 'memory', 'import', '--org', one.orgId, '--user', one.owner.userId], env);
    expect(missing.code).toBe(64);
    expect(missing.stderr).toContain('<file> is required');

    const badScope = await runPnpm(['cli', 'memory', 'import', '--org', one.orgId, '--user', one.owner.userId, '--scope', 'everyone', file], env);
    expect(badScope.code).toBe(64);
    expect(badScope.stderr).toMatch(/Invalid input: scope: /);

    const help = await runPnpm(['cli', 'memory', 'import', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('pnpm cli memory import --org <org_id> --user <usr_id|email> [--scope user|org] <file.ndjson>');
    expect(help.stdout).toMatch(/Progress on stderr/);
  }, 120_000);
});

describe('pnpm cli orgs delete', () => {
  it('reports the archived objects it deletes on stderr and leaves none behind', async () => {
    const tenant = await createTenant(server.services, server.url, 'cli purge');
    const session = newSessionId();
    for (const name of ['session-start', 'user-prompt-submit', 'stop']) {
      expect((await tenant.owner.api.post('/v1/hooks/claude-code', { body: fixture('claude-code', name, { session_id: session }) })).status).toBe(202);
    }
    await server.archiver.runOnce(true);
    const stored = await server.store.list(`orgs/${tenant.orgId}/`);
    expect(stored.length).toBeGreaterThan(0);

    const deleted = await runPnpm(['cli', 'orgs', 'delete', '--org', tenant.orgId], env);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(jsonOf(deleted.stdout).deleted).toMatchObject({ workstreams: 1, users: 1 });
    const total = stored.length;
    expect(deleted.stderr).toMatch(
      new RegExp(`^orgs delete: ${total}/${total} objects \\(100%\\), ${total} deleted, 0 failed, [\\d,]+ objects/s, \\d+\\.\\d s$`, 'm'),
    );
    expect(await server.store.list(`orgs/${tenant.orgId}/`)).toEqual([]);
  }, 120_000);
});

describe('archiver.purgeObjects', () => {
  it('works through every queued key a batch at a time, reporting each batch', async () => {
    const orgId = newId('org', new Date());
    const prefix = `orgs/${orgId}/workstreams/ws_purge/segments/`;
    const keys = Array.from({ length: 300 }, (_, index) => `${prefix}${String(index).padStart(6, '0')}.ndjson.gz`);
    for (const key of keys) await server.store.putImmutable(key, new TextEncoder().encode('x'), 'application/gzip');
    const now = new Date(Date.now() - 1000);
    await server.database.db.insert(archiveDeletions).values(keys.map((key) => ({ key, orgId, requestedAt: now, nextAttemptAt: now })));

    const reports: PurgeProgress[] = [];
    const done = await server.archiver.purgeObjects(keys, [], (progress) => reports.push(progress));
    expect(reports).toEqual([
      { done: 256, total: 300, deleted: 256, failed: 0 },
      { done: 300, total: 300, deleted: 300, failed: 0 },
    ]);
    expect(done).toEqual(reports.at(-1));
    expect(await server.store.list(`orgs/${orgId}/`)).toEqual([]);
  });
});
