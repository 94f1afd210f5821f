import { openDatabase } from '@memory-bank/db/system';
import { sql } from 'drizzle-orm';
import type mysql from 'mysql2/promise';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';
import { expectStatus } from './support/http';

let server: TestServer;
let user: TestUser;

const save = async (who: TestUser, content: string) => {
  const res = await who.api.post('/v1/memory', { body: { content } });
  expectStatus(res, 201);
  return res.body.id;
};
const search = async (who: TestUser, q: string) => {
  const res = await who.api.get(`/v1/memory/search?q=${encodeURIComponent(q)}`);
  expectStatus(res, 200);
  return res.body.results;
};
const ids = async (who: TestUser, q: string) => (await search(who, q)).map((r) => r.id);

const m: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  user = (await createTenant(server.services, server.url)).owner;
  const notes: [string, string][] = [
    ['rotate', 'We rotate the signing secret every ninety days.'],
    ['orderSync', 'The OrderSync worker retries failed webhooks three times.'],
    ['invoice', 'createInvoice must be idempotent: pass the order id as the key.'],
    ['release', 'Release v1.32.2 fixed the memory leak in the exporter.'],
    ['kubernetes', 'Kubernetes upgrades happen on the second Tuesday of the month.'],
    ['errorRate', 'Alert when the error rate stays above two percent for ten minutes.'],
    ['errorScattered', 'Error budgets reset monthly; the rate limiter logs every error and its rate.'],
    ['postgres', 'Postgres vacuum settings were tuned for the events table.'],
    ['french', 'Nous avons choisi Postgres pour la base de données des factures.'],
  ];
  for (const [name, content] of notes) m[name] = await save(user, content);
});
afterAll(() => server.close());

describe('search terms', () => {
  it('finds other forms of a word through its stem, the exact form first', async () => {
    expect((await ids(user, 'rotating secrets'))[0]).toBe(m.rotate);
    expect((await ids(user, 'factures'))[0]).toBe(m.french);
    expect((await ids(user, 'facture'))[0]).toBe(m.french);
    const exact = await save(user, 'Rotating the secrets is automated now.');
    const results = await search(user, 'rotating secrets');
    expect(results[0]!.id).toBe(exact);
    expect(results[1]!.id).toBe(m.rotate);
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
    expect((await user.api.delete(`/v1/memory/${exact}`)).status).toBe(204);
  });

  it('finds CamelCase, camelCase and version identifiers by their parts', async () => {
    expect(await ids(user, 'order sync')).toContain(m.orderSync);
    expect((await ids(user, 'OrderSync'))[0]).toBe(m.orderSync);
    expect((await ids(user, 'invoice'))[0]).toBe(m.invoice);
    expect((await ids(user, 'create_invoice'))[0]).toBe(m.invoice);
    expect((await ids(user, 'v1.32.2'))[0]).toBe(m.release);
  });

  it('matches the last word as a prefix (type-ahead) and words ending in *', async () => {
    expect(await ids(user, 'kubern')).toEqual([m.kubernetes]);
    expect((await ids(user, 'postgr* vacuum'))[0]).toBe(m.postgres);
    expect((await ids(user, 'postgr*')).sort()).toEqual([m.postgres, m.french].sort());
  });

  it('ranks a quoted phrase above the same words scattered', async () => {
    const results = await search(user, '"error rate"');
    expect(results.map((r) => r.id)).toEqual([m.errorRate, m.errorScattered]);
    expect(results[0]!.match.phrases).toEqual(['error rate']);
    expect(results[1]!.match.phrases).toEqual([]);
  });

  it('ignores question filler', async () => {
    expect((await ids(user, 'when do we upgrade Kubernetes?'))[0]).toBe(m.kubernetes);
    expect((await ids(user, 'which postgres settings did we tune?'))[0]).toBe(m.postgres);
  });
});

describe('scores and matches', () => {
  it('scores from 0 to 1, best first, with the matched words and where they are', async () => {
    const results = await search(user, 'webhook retries OrderSync');
    expect(results[0]!.id).toBe(m.orderSync);
    for (const r of results) expect(r.score).toBeGreaterThan(0);
    for (const r of results) expect(r.score).toBeLessThanOrEqual(1);
    expect(results.map((r) => r.score)).toEqual(results.map((r) => r.score).sort((a, b) => b - a));
    const { match, content } = results[0]!;
    expect(match.terms.sort()).toEqual(['ordersync', 'retries', 'webhook'].sort());
    const marked = match.highlights.map((h) => [content.slice(h.start, h.end), h.kind]);
    expect(marked).toEqual(expect.arrayContaining([['OrderSync', 'exact'], ['retries', 'exact'], ['webhooks', 'stem']]));
  });

  it('highlights parts of identifiers and prefixes', async () => {
    const [invoice] = await search(user, 'invoice');
    expect(invoice!.match.highlights.map((h) => [invoice!.content.slice(h.start, h.end), h.kind])).toEqual([['Invoice', 'part']]);
    const [kube] = await search(user, 'kubern');
    expect(kube!.match.highlights.map((h) => [kube!.content.slice(h.start, h.end), h.kind])).toEqual([['Kubernetes', 'prefix']]);
  });
});

describe("the owner's statistics", () => {
  const stats = async (ownerId: string, term: string) => {
    const [rows] = (await server.database.db.execute(sql`SELECT docs, tokens FROM memory_term_stats WHERE owner_id = ${ownerId} AND term = ${term}`)) as unknown as [{ docs: number; tokens: number }[]];
    return rows[0] ? { docs: Number(rows[0].docs), tokens: Number(rows[0].tokens) } : null;
  };

  it('follow saves, changes and deletes', async () => {
    const solo = await createTenant(server.services, server.url);
    const who = solo.owner;
    const id = await save(who, 'Turnip turnip soup');
    const owner = (await server.database.db.execute(sql`SELECT user_id FROM memory WHERE id = ${id}`)) as unknown as [{ user_id: string }[]];
    const ownerId = owner[0][0]!.user_id;
    expect(await stats(ownerId, '')).toEqual({ docs: 1, tokens: 3 });
    expect(await stats(ownerId, 'wturnip')).toEqual({ docs: 1, tokens: 2 });
    await save(who, 'Turnip cake');
    expect(await stats(ownerId, 'wturnip')).toEqual({ docs: 2, tokens: 3 });
    expect((await who.api.patch(`/v1/memory/${id}`, { body: { content: 'Parsnip soup' } })).status).toBe(200);
    expect(await stats(ownerId, 'wturnip')).toEqual({ docs: 1, tokens: 1 });
    expect(await stats(ownerId, 'wparsnip')).toEqual({ docs: 1, tokens: 1 });
    expect(await stats(ownerId, '')).toEqual({ docs: 2, tokens: 4 });
    expect((await who.api.delete(`/v1/memory/${id}`)).status).toBe(204);
    // A term no memory holds any more is gone: its word may be all that is left of the memory.
    expect(await stats(ownerId, 'wparsnip')).toBeNull();
    expect(await stats(ownerId, '')).toEqual({ docs: 1, tokens: 2 });
  });

  it('stay exact under concurrent saves of one owner (no deadlock, no lost update)', async () => {
    const who = (await createTenant(server.services, server.url)).owner;
    const ids = await Promise.all(Array.from({ length: 24 }, (_, i) => save(who, `Concurrent quince note ${i} about quince jam`)));
    const [owned] = (await server.database.db.execute(sql`SELECT user_id FROM memory WHERE id = ${ids[0]}`)) as unknown as [{ user_id: string }[]];
    const ownerId = owned[0]!.user_id;
    expect(await stats(ownerId, '')).toEqual({ docs: 24, tokens: 24 * 7 });
    expect(await stats(ownerId, 'wquince')).toEqual({ docs: 24, tokens: 48 });
  });

  it('of concurrent saves of one owner go together: one transaction for the saves that arrived while another ran', async () => {
    const upserts: string[] = [];
    const handle = openDatabase(inject('databaseUrl'), {
      poolSize: 4,
      logQuery: (query) => void (query.startsWith('INSERT INTO `memory_term_stats`') && upserts.push(query)),
    });
    const app = createApp({ db: handle.db, config: loadConfig({ DATABASE_URL: inject('databaseUrl'), LOG_LEVEL: 'silent' }), logger: pino({ level: 'silent' }) });
    try {
      const { orgId, owner } = await createTenant(app.services, server.url);
      const principal = await app.services.operator.actAs(orgId, owner.userId, 'test');
      await Promise.all(Array.from({ length: 32 }, (_, i) => app.services.memory.create(principal, { content: `Medlar note ${i}` }, 'api')));
      // The first runs alone; the 31 that arrived while it ran go together in the next.
      expect(upserts).toHaveLength(2);
      expect(await stats(owner.userId, '')).toEqual({ docs: 32, tokens: 96 });
      expect(await stats(owner.userId, 'wmedlar')).toEqual({ docs: 32, tokens: 32 });
      expect(await stats(owner.userId, 'wnote')).toEqual({ docs: 32, tokens: 32 });
    } finally {
      await app.close({ flush: false });
      await handle.close();
    }
  });

  it('of a save commit with it: while the owner\'s totals row is held elsewhere, nothing of the save is visible', async () => {
    const { orgId, owner: who } = await createTenant(server.services, server.url);
    await save(who, 'Medlar first note');
    // Another connection holds the owner's totals row.
    const holder = await server.database.pool.getConnection();
    try {
      await holder.query('START TRANSACTION');
      await holder.query("SELECT docs FROM memory_term_stats WHERE org_id = ? AND owner_id = ? AND term = '' FOR UPDATE", [orgId, who.userId]);
      const saving = who.api.post('/v1/memory', { body: { content: 'Medlar jam with a source', contexts: [{ snippet: 'from the jam book' }] } });
      // The save waits for the row, inside its transaction.
      const waiting = async () => {
        const [rows] = await holder.query<mysql.RowDataPacket[]>("SELECT COUNT(*) AS n FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'");
        return Number(rows[0]!.n);
      };
      // InnoDB refreshes what INNODB_TRX shows only when it was not read for 0.1 s: ask less often.
      await expect.poll(waiting, { timeout: 20_000, interval: 250 }).toBeGreaterThan(0);
      const visible = async () => {
        const [rows] = await server.database.pool.query<mysql.RowDataPacket[]>("SELECT COUNT(*) AS n FROM memory WHERE org_id = ? AND content = 'Medlar jam with a source'", [orgId]);
        return Number(rows[0]!.n);
      };
      expect(await visible()).toBe(0);
      await holder.query('COMMIT');
      const res = await saving;
      expectStatus(res, 201);
      expect(await visible()).toBe(1);
      expect(await stats(who.userId, '')).toMatchObject({ docs: 2 });
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      holder.release();
    }
  });

  it("of org-shared memories belong to the org, and count for every member's search", async () => {
    const org = await createTenant(server.services, server.url);
    const member = await org.addMember('member');
    const res = await org.owner.api.post('/v1/memory', { body: { content: 'Okapi runbook: restart the okapi gateway first', scope: 'org' } });
    expectStatus(res, 201);
    const [owned] = (await server.database.db.execute(sql`SELECT org_id FROM memory WHERE id = ${res.body.id}`)) as unknown as [{ org_id: string }[]];
    const orgId = owned[0]!.org_id;
    expect(await stats(orgId, 'wokapi')).toEqual({ docs: 1, tokens: 2 });
    const [found] = await search(member, 'okapi gateway');
    expect(found!.id).toBe(res.body.id);
    expect(found!.score).toBeGreaterThan(0.5);
    expect((await org.owner.api.delete(`/v1/memory/${res.body.id}`)).status).toBe(204);
    expect(await stats(orgId, '')).toBeNull();
    expect(await stats(orgId, 'wokapi')).toBeNull();
  });
});

describe('queries that stress the FULLTEXT syntax', () => {
  it('never fail, whatever mix of quotes, stars, identifiers and scripts they hold', async () => {
    const hostile = [
      '"', '""', '"*"', '*"a"', '"a*"', 'a**', '**a', '"" ""', '"a" "b" "',
      '"error rate', 'error" rate"', '"東京" タワー*', '"OrderSync*"', `${'x'.repeat(200)}*`,
      Array.from({ length: 40 }, (_, i) => `someIdentifier${i}Name_${i}`).join(' '),
      Array.from({ length: 40 }, (_, i) => `"w${i} v${i}.${i}"`).join(' '),
      '>"a b" <c ~d @4 (e*) +"f g"', 'MATCH(search_terms) AGAINST("x" IN BOOLEAN MODE)',
    ];
    for (const q of hostile) {
      const res = await user.api.get(`/v1/memory/search?q=${encodeURIComponent(q.slice(0, 512))}`);
      expect({ q, status: res.status }).toEqual({ q, status: 200 });
    }
  });
});
