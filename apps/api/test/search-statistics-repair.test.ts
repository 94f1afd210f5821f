import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from './support/http';
import { runPnpm } from './support/process';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant } from './support/tenants';

/*
 * Search statistics drift only through something outside the service (a table restored
 * from an older backup, a hand edit): `pnpm cli doctor` says whose are off, and
 * `pnpm cli stats rebuild` (or doctor --repair) counts them again from the memories.
 */
let server: TestServer;
let tenant: TestTenant;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer({ ownDatabase: true });
  tenant = await createTenant(server.services, server.url, 'Statistics repair');
  for (const content of ['Turnip soup on Mondays', 'Turnip cake for the fair', 'Parsnip jam']) {
    expectStatus(await tenant.owner.api.post('/v1/memory', { body: { content } }), 201);
  }
  expectStatus(await tenant.owner.api.post('/v1/memory', { body: { content: 'Shared turnip recipe', scope: 'org' } }), 201);
  env = { DATABASE_URL: server.config.DATABASE_URL, ARCHIVE_URL: server.config.ARCHIVE_URL };
});
afterAll(() => server.close());

const statistics = async () => {
  const [rows] = await server.database.pool.query<mysql.RowDataPacket[]>('SELECT owner_id, term, docs, tokens FROM memory_term_stats WHERE org_id = ? ORDER BY owner_id, term', [tenant.orgId]);
  return rows.map((row) => ({ ...row }));
};
const doctor = async (...args: string[]) => {
  const run = await runPnpm(['cli', 'doctor', ...args], env, 120_000);
  const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as { findings: { check: string; ok: boolean; detail: string; repaired?: string }[] };
  return { code: run.code, finding: report.findings.find((finding) => finding.check === 'search_statistics')! };
};

describe('search statistics that drifted', () => {
  it('are reported by doctor and counted again by `stats rebuild`, to exactly what the service keeps', async () => {
    const kept = await statistics();
    expect(kept.length).toBeGreaterThan(10);
    expect((await doctor()).finding).toMatchObject({ ok: true });

    const pool = server.database.pool;
    await pool.query("UPDATE memory_term_stats SET docs = 99 WHERE org_id = ? AND owner_id = ? AND term = ''", [tenant.orgId, tenant.owner.userId]);
    await pool.query("DELETE FROM memory_term_stats WHERE org_id = ? AND owner_id = ? AND term = 'wparsnip'", [tenant.orgId, tenant.owner.userId]);
    await pool.query("INSERT INTO memory_term_stats (org_id, owner_id, term, docs, tokens) VALUES (?, ?, 'wghostword', 0, 0)", [tenant.orgId, tenant.owner.userId]);
    const drifted = await doctor();
    expect(drifted.code).toBe(1);
    expect(drifted.finding).toMatchObject({ ok: false, detail: expect.stringContaining(`${tenant.orgId}/${tenant.owner.userId} counts 99 of 3`) });
    expect(drifted.finding.detail).toContain('1 rows of terms no memory holds');

    const rebuilt = await runPnpm(['cli', 'stats', 'rebuild', '--org', tenant.orgId], env, 120_000);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(JSON.parse(rebuilt.stdout.slice(rebuilt.stdout.indexOf('{')))).toEqual({ owners: 2, memories: 4, rows_changed: 3, owners_changed: 1 });
    expect(rebuilt.stderr).toMatch(/^stats rebuild: 2\/2 owners \(100%\), 4 memories, 3 rows changed, /m);
    expect(await statistics()).toEqual(kept);
    expect((await doctor()).finding).toMatchObject({ ok: true });
  }, 240_000);

  it('are repaired by doctor --repair too', async () => {
    const kept = await statistics();
    await server.database.pool.query("UPDATE memory_term_stats SET docs = docs + 5, tokens = tokens + 7 WHERE org_id = ? AND owner_id = ? AND term = ''", [tenant.orgId, tenant.orgId]);
    const repaired = await doctor('--repair');
    expect(repaired.code).toBe(0);
    expect(repaired.finding).toMatchObject({ ok: true, repaired: 'recounted 1 owners (1 rows changed), removed 0 emptied rows' });
    expect(await statistics()).toEqual(kept);
  }, 240_000);
});
