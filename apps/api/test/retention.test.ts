import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../src/archive/doctor';
import { rebuildLedger } from '../src/archive/rebuild';
import { fixture, newSessionId } from './support/hooks';
import { bodyOf, expectStatus } from './support/http';
import { DAY_MS, ledgerRowsHolding, memoryTablesHolding, movableClock, rowsOf, statisticsOff } from './support/lifecycle';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant, type TestUser } from './support/tenants';

/*
 * Retention: an org's memory_retention_days deletes the memories not updated within that
 * many days (pinned ones stay), its workstream_retention_days the ledger events received
 * before then and the archived segments whose events all were — really (rows, FULLTEXT,
 * statistics, objects), and nothing else. The clock is moved instead of waiting; runs and
 * the archiver are driven by hand, on a database of its own.
 */
const clock = movableClock();
const silent = pino({ level: 'silent' });
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ ownDatabase: true, startArchiver: false, clock });
});
afterAll(() => server.close());

let words = 0;
/** A word no other memory or event holds. */
const codeWord = () => `marram${process.pid}x${words++}`;

async function remember(who: TestUser, word: string, extra: { scope?: 'user' | 'org'; pinned?: boolean } = {}): Promise<string> {
  return bodyOf(await who.api.post('/v1/memory', { body: { content: `Notes on ${word}: the ${word}Alpha plan`, ...extra, contexts: [{ snippet: `${word} said so` }] } }), 201).id;
}

const retain = async (tenant: TestTenant, body: { memory_retention_days?: number | null; workstream_retention_days?: number | null }) =>
  expectStatus(await tenant.owner.api.patch('/v1/org', { body }), 200);

const doctor = () =>
  runDoctor({ db: server.database.db, store: server.store, archiver: server.archiver, clock, logger: silent, migrate: async () => {} }, { repair: false });

describe('memory retention', () => {
  it('deletes memories not updated within n days, keeps pinned and recently updated ones, and touches no other org', async () => {
    const org = await createTenant(server.services, server.url, 'Retaining org');
    const member = await org.addMember('member');
    const other = await createTenant(server.services, server.url, 'Keeping org');
    const [old, shared, ofMember, pinned, touched, elsewhere] = Array.from({ length: 6 }, codeWord) as [string, string, string, string, string, string];
    await remember(org.owner, old);
    await remember(org.owner, shared, { scope: 'org' });
    await remember(member, ofMember);
    await remember(org.owner, pinned, { pinned: true });
    const touchedId = await remember(org.owner, touched);
    await remember(other.owner, elsewhere);
    await retain(org, { memory_retention_days: 30 });

    clock.advance(31 * DAY_MS);
    expectStatus(await org.owner.api.patch(`/v1/memory/${touchedId}`, { body: { tags: ['still-current'] } }), 200);
    const recent = codeWord();
    await remember(org.owner, recent);

    const report = await server.maintenance.run();
    expect(report.removed.memory_retention).toEqual({ memories: 3 });
    for (const word of [old, shared, ofMember]) expect(await memoryTablesHolding(server, word)).toEqual([]);
    for (const word of [pinned, touched, recent, elsewhere]) expect(await memoryTablesHolding(server, word)).toContain('memory');
    for (const [orgId, ownerId] of [
      [org.orgId, org.owner.userId],
      [org.orgId, org.orgId],
      [org.orgId, member.userId],
      [other.orgId, other.owner.userId],
    ] as const) {
      expect(await statisticsOff(server, orgId, ownerId)).toBe(0);
    }
    // Nothing is left due: a second run deletes nothing.
    expect((await server.maintenance.run()).removed.memory_retention).toBeUndefined();
  });

  it('works through more than a batch in one run, and keeps everything once set back to null', async () => {
    const org = await createTenant(server.services, server.url, 'Big retaining org');
    for (let i = 0; i < 60; i++) await remember(org.owner, `bulk ${i}`);
    const kept = await createTenant(server.services, server.url, 'Org that changed its mind');
    const keptWord = codeWord();
    await remember(kept.owner, keptWord);
    await retain(kept, { memory_retention_days: 1 });
    await retain(kept, { memory_retention_days: null });
    await retain(org, { memory_retention_days: 1 });
    clock.advance(2 * DAY_MS);

    expect((await server.maintenance.run()).removed.memory_retention).toEqual({ memories: 60 });
    expect(await rowsOf(server, 'memory', 'org_id = ?', [org.orgId])).toBe(0);
    expect(await rowsOf(server, 'memory_term_stats', 'org_id = ? AND docs > 0', [org.orgId])).toBe(0);
    expect(await memoryTablesHolding(server, keptWord)).toContain('memory');
  });
});

describe('workstream retention', () => {
  /** Posts one prompt event per word to a Claude Code session; the workstream id. */
  async function post(who: TestUser, session: string, texts: string[]): Promise<string> {
    let workstreamId = '';
    for (const text of texts) {
      workstreamId = bodyOf(await who.api.post('/v1/hooks/claude-code', { body: fixture('claude-code', 'user-prompt-submit', { session_id: session, prompt: `about ${text}` }) }), 202).workstream_id;
    }
    return workstreamId;
  }
  const objects = (prefix: string) => server.store.list(prefix);
  const searchHits = async (who: TestUser, word: string) => bodyOf(await who.api.get(`/v1/workstreams/search?q=${word}`), 200).results.length;

  it('deletes the events received before n days with the objects of their segments, the sessions left empty, and nothing else', async () => {
    const org = await createTenant(server.services, server.url, 'Ledger retaining org');
    const member = await org.addMember('member');
    const other = await createTenant(server.services, server.url, 'Ledger keeping org');
    const [gone, longOld, longNew, memberNew, elsewhere] = Array.from({ length: 5 }, codeWord) as [string, string, string, string, string];

    const ended = await post(org.owner, newSessionId(), [`${gone} one`, `${gone} two`, `${gone} three`]);
    const longSession = newSessionId();
    const long = await post(org.owner, longSession, [`${longOld} one`, `${longOld} two`]);
    const otherOrg = await post(other.owner, newSessionId(), [`${elsewhere} one`]);
    await server.archiver.runOnce(true);
    const firstSegments = await objects(`orgs/${org.orgId}/workstreams/${long}/segments/`);
    expect(firstSegments).toHaveLength(1);

    clock.advance(2 * DAY_MS);
    await post(org.owner, longSession, [`${longNew} one`]);
    const recent = await post(member, newSessionId(), [`${memberNew} one`]);
    await server.archiver.runOnce(true);
    await retain(org, { workstream_retention_days: 1 });
    await retain(other, { memory_retention_days: 1 });

    const report = await server.maintenance.run();
    expect(report.removed.workstream_retention).toEqual({ events: 5, segments: 2, workstreams: 1 });

    // The ledger: rows and search hits gone, the newer ones there.
    for (const word of [gone, longOld]) {
      expect(await ledgerRowsHolding(server, word)).toBe(0);
      expect(await searchHits(org.owner, word)).toBe(0);
    }
    expect(await ledgerRowsHolding(server, longNew)).toBe(1);
    expect(await searchHits(org.owner, longNew)).toBe(1);
    expect(await ledgerRowsHolding(server, memberNew)).toBe(1);
    expect(await ledgerRowsHolding(server, elsewhere)).toBe(1);
    expectStatus(await org.owner.api.get(`/v1/workstreams/${ended}`), 404);
    expect(await rowsOf(server, 'workstreams', 'id = ?', [ended])).toBe(0);
    // The session goes on from its newer events: sequences are not renumbered.
    expect(bodyOf(await org.owner.api.get(`/v1/workstreams/${long}`), 200).event_count).toBe(3);
    expect(await rowsOf(server, 'workstream_events', 'workstream_id = ?', [long])).toBe(1);
    expect(await rowsOf(server, 'workstream_events', 'workstream_id = ? AND sequence = 3', [long])).toBe(1);

    // The archive: the old segments and the emptied session's manifest deleted; the rest kept.
    expect(await objects(`orgs/${org.orgId}/workstreams/${ended}/`)).toEqual([]);
    const longObjects = await objects(`orgs/${org.orgId}/workstreams/${long}/`);
    expect(longObjects).not.toContain(firstSegments[0]);
    expect(longObjects.filter((key) => key.includes('/segments/'))).toHaveLength(1);
    expect(longObjects.some((key) => key.endsWith('workstream.json'))).toBe(true);
    expect((await objects(`orgs/${org.orgId}/workstreams/${recent}/`)).length).toBeGreaterThan(0);
    expect((await objects(`orgs/${other.orgId}/workstreams/${otherOrg}/`)).length).toBeGreaterThan(0);
    expect(await rowsOf(server, 'archive_deletions', 'org_id = ?', [org.orgId])).toBe(0);

    // What is left is consistent: doctor finds nothing wrong.
    expect((await doctor()).findings.filter((finding) => !finding.ok)).toEqual([]);
    expect((await server.maintenance.run()).removed.workstream_retention).toBeUndefined();
  });

  it('keeps objects queued while the store fails — never rebuilt from, nor orphans — and the archiver deletes them later', async () => {
    const org = await createTenant(server.services, server.url, 'Outage org');
    const word = codeWord();
    const workstreamId = await post(org.owner, newSessionId(), [`${word} one`, `${word} two`]);
    await server.archiver.runOnce(true);
    await retain(org, { workstream_retention_days: 1 });
    clock.advance(2 * DAY_MS);
    const prefix = `orgs/${org.orgId}/workstreams/${workstreamId}/`;
    const stored = await objects(prefix);
    expect(stored).toHaveLength(2);

    const { store } = server;
    const deleteObject = store.delete.bind(store);
    store.delete = async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:9000');
    };
    try {
      await server.maintenance.run();
    } finally {
      store.delete = deleteObject;
    }
    expect(await ledgerRowsHolding(server, word)).toBe(0);
    expect(await rowsOf(server, 'workstreams', 'id = ?', [workstreamId])).toBe(0);
    expect((await objects(prefix)).sort()).toEqual(stored.sort());
    expect(await rowsOf(server, 'archive_deletions', 'org_id = ?', [org.orgId])).toBe(2);
    const findings = (await doctor()).findings;
    expect(findings.find((finding) => finding.check === 'orphans')).toMatchObject({ ok: true, detail: expect.stringMatching(/\(\d+ queued for deletion\)/) });
    const rebuilt = await rebuildLedger({ db: server.database.db, store: server.store, logger: silent }, { orgId: org.orgId });
    expect(rebuilt).toMatchObject({ workstreams: 0, events: 0 });
    expect(await ledgerRowsHolding(server, word)).toBe(0);

    // The deletion is retried with backoff: once it is due, the archiver deletes them.
    clock.advance(60_000);
    await server.archiver.runOnce();
    expect(await objects(prefix)).toEqual([]);
    expect(await rowsOf(server, 'archive_deletions', 'org_id = ?', [org.orgId])).toBe(0);
  });
});
