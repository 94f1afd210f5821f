import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { runDoctor } from '../src/archive/doctor';
import { RETENTION_LIMITS } from '../src/limits';
import { bodyOf, expectStatus, request } from './support/http';
import { memoryTablesHolding, movableClock, rowsOf, statisticsOff } from './support/lifecycle';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant, type TestUser } from './support/tenants';

/*
 * Expiry: a memory whose expires_at has passed is really deleted by the maintenance loop —
 * its row, contexts, search statistics and FULLTEXT entries — at its first run after
 * expiry. The app's clock is moved instead of waiting; runs are started by hand. A
 * database of its own: moving the clock expires what other suites saved.
 */
const METRICS_TOKEN = 'metrics-token-for-the-expiry-tests-0123';
const clock = movableClock();
let server: TestServer;
let org: TestTenant;
let other: TestTenant;

beforeAll(async () => {
  server = await startTestServer({ ownDatabase: true, clock, env: { METRICS_TOKEN } });
  org = await createTenant(server.services, server.url, 'Expiry org');
  other = await createTenant(server.services, server.url, 'Other org');
  // Another memory of each owner, so their statistics live on after each deletion.
  for (const tenant of [org, other]) expectStatus(await tenant.owner.api.post('/v1/memory', { body: { content: 'Deploys happen on Tuesdays' } }), 201);
});
afterAll(() => server.close());

let words = 0;
/** A word no other memory holds. */
const codeWord = () => `quillwort${process.pid}x${words++}`;

async function remember(who: TestUser, word: string, extra: { scope?: 'user' | 'org'; pinned?: boolean; supersedes?: string[] } = {}): Promise<string> {
  const res = await who.api.post('/v1/memory', {
    body: { content: `The ${word} launch code is ${word}Alpha`, ...extra, contexts: [{ snippet: `${word} from the call`, citation: { url: `https://chat.example/${word}`, title: word } }] },
  });
  expectStatus(res, 201);
  return res.body.id;
}

/** Sets the memory to expire `inMs` from the app's now. */
async function expireIn(who: TestUser, id: string, inMs: number): Promise<void> {
  expectStatus(await who.api.patch(`/v1/memory/${id}`, { body: { expires_at: new Date(clock.now().getTime() + inMs).toISOString() } }), 200);
}

async function lifecycleSeries(): Promise<Record<string, number>> {
  const res = await request(server.url, 'GET', '/metrics', { key: METRICS_TOKEN });
  expect(res.status).toBe(200);
  const series: Record<string, number> = {};
  for (const [, name, labels, value] of String(res.text).matchAll(/^(memory_bank_lifecycle_\w+)\{([^}]*)\} (\S+)$/gm)) series[`${name}{${labels}}`] = Number(value);
  return series;
}

describe('expiry', () => {
  it('deletes an expired memory from every table at the first run after it expires, and nothing before', async () => {
    const word = codeWord();
    const id = await remember(org.owner, word);
    const keeper = await remember(org.owner, codeWord());
    await expireIn(org.owner, id, 60_000);
    expect(await memoryTablesHolding(server, word)).toEqual(['memory', 'memory FULLTEXT', 'memory_context', 'memory_term_stats']);

    await server.maintenance.run();
    expect(await memoryTablesHolding(server, word)).toHaveLength(4);

    clock.advance(60_001);
    const report = await server.maintenance.run();
    expect(report.removed.memory_expiry).toEqual({ memories: 1 });
    expect(await memoryTablesHolding(server, word)).toEqual([]);
    expect(await rowsOf(server, 'memory_context', 'memory_id = ?', [id])).toBe(0);
    expect(await statisticsOff(server, org.orgId, org.owner.userId)).toBe(0);
    // The owner's other memories are untouched.
    expectStatus(await org.owner.api.get(`/v1/memory/${keeper}`), 200);
    expect(bodyOf(await org.owner.api.get('/v1/memory/search?q=Tuesdays'), 200).results).toHaveLength(1);
  });

  it('deletes expired memories of every org, shared and pinned ones too, and leaves live ones', async () => {
    const words = [codeWord(), codeWord(), codeWord()];
    const shared = await remember(org.owner, words[0]!, { scope: 'org' });
    const elsewhere = await remember(other.owner, words[1]!);
    const pinned = await remember(org.owner, words[2]!, { pinned: true });
    const live = await remember(other.owner, codeWord());
    await expireIn(other.owner, live, 3600_000);
    await expireIn(org.owner, shared, 1000);
    await expireIn(other.owner, elsewhere, 1000);
    await expireIn(org.owner, pinned, 1000);
    clock.advance(1001);

    const report = await server.maintenance.run();
    expect(report.removed.memory_expiry).toEqual({ memories: 3 });
    for (const word of words) expect(await memoryTablesHolding(server, word)).toEqual([]);
    expect(await rowsOf(server, 'memory', 'id = ?', [live])).toBe(1);
    expect(await statisticsOff(server, org.orgId, org.orgId)).toBe(0);
    expect(await statisticsOff(server, other.orgId, other.owner.userId)).toBe(0);
  });

  it('deletes only the expired memory of a chain: the memories it superseded stay superseded', async () => {
    const older = await remember(org.owner, codeWord());
    const newerWord = codeWord();
    const newer = await remember(org.owner, newerWord, { supersedes: [older] });
    await expireIn(org.owner, newer, 1000);
    clock.advance(1001);

    await server.maintenance.run();
    expect(await memoryTablesHolding(server, newerWord)).toEqual([]);
    const [rows] = await server.database.pool.query('SELECT superseded_by FROM memory WHERE id = ?', [older]);
    expect(rows).toEqual([{ superseded_by: newer }]);
    expect(await statisticsOff(server, org.orgId, org.owner.userId)).toBe(0);
  });

  it('counts what it deleted and what is due on /metrics, and doctor reports both', async () => {
    const silent = pino({ level: 'silent' });
    const doctor = (repair: boolean) =>
      runDoctor({ db: server.database.db, store: server.store, archiver: server.archiver, maintenance: server.maintenance, clock, logger: silent, migrate: async () => {} }, { repair });
    const maintenance = async () => (await doctor(false)).findings.find((finding) => finding.check === 'maintenance')!;

    const before = (await lifecycleSeries())['memory_bank_lifecycle_deleted_total{job="memory_expiry",kind="memories"}'] ?? 0;
    const ids = [await remember(org.owner, codeWord()), await remember(org.owner, codeWord())];
    for (const id of ids) await expireIn(org.owner, id, 1000);
    clock.advance(1001);
    expect(await lifecycleSeries()).toMatchObject({
      'memory_bank_lifecycle_due{job="memory_expiry",kind="memories"}': 2,
      'memory_bank_lifecycle_due{job="memory_retention",kind="memories"}': 0,
      'memory_bank_lifecycle_due{job="workstream_retention",kind="events"}': 0,
    });
    expect(await maintenance()).toMatchObject({ ok: true, detail: expect.stringContaining('due now: 2 expired memories') });

    // Due for longer than a running loop allows: the loop is not running.
    clock.advance(3 * 60_000);
    expect(await maintenance()).toMatchObject({ ok: false, detail: expect.stringContaining('2 due for over 2 minutes') });
    const repaired = (await doctor(true)).findings.find((finding) => finding.check === 'maintenance')!;
    expect(repaired).toMatchObject({ ok: true, repaired: expect.stringContaining('ran the maintenance jobs') });
    expect(repaired.detail).toMatch(/^last 24 h: \d+ expired memories deleted; .*due now: 0 expired memories.*lease: free$/);
    expect(repaired.detail).not.toContain('quillwort');

    expect(await lifecycleSeries()).toMatchObject({
      'memory_bank_lifecycle_due{job="memory_expiry",kind="memories"}': 0,
      'memory_bank_lifecycle_deleted_total{job="memory_expiry",kind="memories"}': before + 2,
    });
  });

  it('runs on its own, within the interval, once started', async () => {
    // A minute at most from expiry to deletion, even when the process holding the lease died.
    expect(RETENTION_LIMITS.intervalMs + RETENTION_LIMITS.leaseMs).toBeLessThan(60_000);
    const looping = await startTestServer({ databaseUrl: server.config.DATABASE_URL, clock, maintenanceOptions: { intervalMs: 50 } });
    try {
      const word = codeWord();
      await expireIn(org.owner, await remember(org.owner, word), 1000);
      clock.advance(1001);
      looping.maintenance.start();
      await expect.poll(() => memoryTablesHolding(server, word), { timeout: 10_000, interval: 50 }).toEqual([]);
    } finally {
      await looping.close();
    }
  });
});
