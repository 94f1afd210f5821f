import { memory, searchTag, type Executor } from '@memory-bank/db';
import { openDatabase, type DatabaseHandle } from '@memory-bank/db/system';
import { eq, sql } from 'drizzle-orm';
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fastPathsOn, inTransaction, preparedOn } from '../../../packages/db/src/driver';
import { claudeSession, newSessionId } from './support/hooks';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant } from './support/tenants';

/*
 * The driver seam (packages/db/src/driver, docs/adr/0007-driver-seam.md): with its fast
 * paths on and off, the service answers the same and leaves the same rows. Run after a
 * drizzle or mysql2 upgrade; until it passes, run with DATABASE_FAST_PATHS=false.
 */

interface Side {
  server: TestServer;
  tenant: TestTenant;
}
let fast: Side;
let plain: Side;
let raw: DatabaseHandle;

beforeAll(async () => {
  const start = async (fastPaths: boolean): Promise<Side> => {
    const server = await startTestServer({ env: { DATABASE_FAST_PATHS: String(fastPaths) } });
    return { server, tenant: await createTenant(server.services, server.url, `Driver ${fastPaths}`) };
  };
  [fast, plain] = await Promise.all([start(true), start(false)]);
  raw = openDatabase(inject('databaseUrl'), { poolSize: 1, fastPaths: false });
});
afterAll(async () => {
  await Promise.all([fast?.server.close(), plain?.server.close(), raw?.close()]);
});

const ID = /\b(mem|mctx|ws|org|usr|key|evt|aud)_[0-9A-Za-z]{16,}\b/g;
const TIMESTAMP = /\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?Z?\b/g;

/** A value with ids named by order of first appearance and timestamps blanked, so two runs compare. */
function normalised(value: unknown): unknown {
  const names = new Map<string, string>();
  // Cursors carry ids (base64url JSON): compared decoded.
  const plainValue = (key: string, v: unknown) =>
    v instanceof Date
      ? v.toISOString()
      : key === 'next_cursor' && typeof v === 'string'
        ? Buffer.from(v, 'base64url').toString()
        : key === 'request_id'
          ? '<request id>'
          : v;
  const text = JSON.stringify(value, plainValue)
    .replace(ID, (id, prefix: string) => {
      if (!names.has(id)) names.set(id, `${prefix}_${names.size}`);
      return names.get(id)!;
    })
    .replace(TIMESTAMP, '<time>');
  return JSON.parse(text);
}

/** What a user does with memories and hooks, as (label, response) pairs. */
async function scenario({ server, tenant }: Side, session: string): Promise<[string, number, unknown][]> {
  const out: [string, number, unknown][] = [];
  const call = async (label: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${tenant.owner.key}`, ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const parsed: unknown = text && /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
    out.push([label, response.status, parsed]);
    return parsed as Record<string, unknown>;
  };
  const saves = [
    { content: 'Deploys happen on Tuesdays after the billing freeze', tags: ['ops', 'billing'] },
    { content: 'The OrderSync worker retries 3 times (see v1.32.2)', contexts: [{ snippet: 'from the incident review', citation: { url: 'https://wiki.example/ir/7', title: 'IR 7' } }] },
    { content: 'Café au lait für die Übergabe, 東京タワー near the office', tags: ['café'] },
    { content: 'Rollback plan: pgbouncer first, then the primary', contexts: [{ snippet: 'a', conversation_id: 'c1', message_id: 'm1' }, { snippet: 'b', origin: 'searched_conversation' }] },
    { content: 'Ada prefers tabs over spaces in every repository' },
  ];
  const ids: string[] = [];
  for (const [i, body] of saves.entries()) ids.push((await call(`save ${i}`, 'POST', '/v1/memory', body)).id as string);
  await call('idempotent save', 'POST', '/v1/memory', { content: 'Saved once only' }, { 'idempotency-key': 'equivalence-1' });
  await call('idempotent replay', 'POST', '/v1/memory', { content: 'Saved once only' }, { 'idempotency-key': 'equivalence-1' });
  const page = await call('list page 1', 'GET', '/v1/memory?limit=2');
  await call('list page 2', 'GET', `/v1/memory?limit=2&cursor=${encodeURIComponent(String(page.next_cursor))}`);
  await call('list by tag', 'GET', '/v1/memory?tag=ops');
  await call('get', 'GET', `/v1/memory/${ids[1]}`);
  for (const q of ['deploy tuesdays', '"rollback plan"', 'ordersync', 'retr*', 'cafe', '東京', 'tabs spaces ada', 'nothing-matches-this']) {
    await call(`search ${q}`, 'GET', `/v1/memory/search?q=${encodeURIComponent(q)}`);
  }
  await call('patch', 'PATCH', `/v1/memory/${ids[0]}`, { content: 'Deploys happen on Wednesdays now', tags: ['ops'] });
  await call('search after patch', 'GET', '/v1/memory/search?q=deploys');
  await call('delete', 'DELETE', `/v1/memory/${ids[4]}`);
  await call('get deleted', 'GET', `/v1/memory/${ids[4]}`);
  const [first, ...rest] = claudeSession(session);
  await call('hook', 'POST', '/v1/hooks/claude-code', first);
  await call('hook again', 'POST', '/v1/hooks/claude-code', first);
  const batch = { events: rest.map((payload) => ({ harness: 'claude-code', payload })) };
  await call('hook batch', 'POST', '/v1/hooks/batch', batch);
  await call('hook batch again', 'POST', '/v1/hooks/batch', batch);
  const workstreams = await call('workstreams', 'GET', '/v1/workstreams');
  const workstream = (workstreams.workstreams as { id: string }[])[0]!.id;
  await call('events', 'GET', `/v1/workstreams/${workstream}/events`);
  await call('ledger search', 'GET', `/v1/workstreams/search?q=${encodeURIComponent('git status')}`);
  return out.map(([label, status, body]) => [label, status, body]);
}

/** The org's rows the scenario wrote, in a stable order, its owners' search tags named. */
async function rowsOf({ tenant }: Side): Promise<unknown> {
  const select = async (query: string) => ((await raw.pool.query<mysql.RowDataPacket[]>(query, [tenant.orgId]))[0] as unknown[]).map((row) => ({ ...(row as object) }));
  const rows = {
    memory: await select('SELECT scope, source, content, tags, search_terms, search_version, context_count FROM memory WHERE org_id = ? ORDER BY id'),
    contexts: await select('SELECT c.snippet, c.citation, c.conversation_id, c.message_id, c.origin FROM memory_context c JOIN memory m ON m.id = c.memory_id WHERE c.org_id = ? ORDER BY m.id, c.id'),
    statistics: await select('SELECT term, docs, tokens FROM memory_term_stats WHERE org_id = ? ORDER BY owner_id = org_id, term'),
    events: await select('SELECT sequence, event_id, kind, role, event, tool_name, outcome, content, search_terms, payload_sha256, payload_bytes FROM workstream_events WHERE org_id = ? ORDER BY workstream_id, sequence'),
    workstreams: await select('SELECT harness, last_sequence, pending_count, pending_bytes, cwd, model FROM workstreams WHERE org_id = ? ORDER BY id'),
  };
  const text = JSON.stringify(rows).replaceAll(searchTag('u', tenant.owner.userId), '<user>').replaceAll(searchTag('o', tenant.orgId), '<org>');
  return JSON.parse(text) as unknown;
}

describe('the driver seam: fast paths on and off', () => {
  it('uses its fast paths only when switched on', () => {
    expect(fastPathsOn(fast.server.database.db)).toBe(true);
    expect(fastPathsOn(plain.server.database.db)).toBe(false);
  });

  it('answers every request of a user’s session the same, and leaves the same rows', async () => {
    // One session id for both: event ids are derived from it.
    const session = newSessionId();
    const [onAnswers, offAnswers] = await Promise.all([scenario(fast, session), scenario(plain, session)]);
    expect(onAnswers.length).toBeGreaterThan(20);
    for (let i = 0; i < onAnswers.length; i++) expect(normalised(onAnswers[i]), onAnswers[i]![0]).toEqual(normalised(offAnswers[i]));
    const [onRows, offRows] = await Promise.all([rowsOf(fast), rowsOf(plain)]);
    expect(onRows).toMatchObject({ memory: expect.arrayContaining([expect.anything()]), statistics: expect.arrayContaining([expect.anything()]), events: expect.arrayContaining([expect.anything()]) });
    expect(normalised(onRows)).toEqual(normalised(offRows));
  });

  // Every kind of selected field: columns (DATETIME → Date, JSON, unsigned integers, enums),
  // SQL with a decoder (mapWith), aliased SQL (a DECIMAL: text), a scalar subquery, NULL.
  const build = (on: Executor) =>
    on
      .select({
        id: memory.id,
        tags: memory.tags,
        scope: memory.scope,
        contextCount: memory.contextCount,
        createdAt: memory.createdAt,
        createdText: sql<string>`${memory.createdAt}`.mapWith((text: string) => `${text}!`),
        score: sql<number>`${memory.contextCount} + 0.5`.as('score'),
        snippet: sql<string | null>`(SELECT \`memory_context\`.\`snippet\` FROM \`memory_context\` WHERE \`memory_context\`.\`org_id\` = \`memory\`.\`org_id\` AND \`memory_context\`.\`memory_id\` = \`memory\`.\`id\` ORDER BY \`memory_context\`.\`id\` LIMIT 1)`,
        nothing: sql<null>`NULL`,
      })
      .from(memory)
      .where(eq(memory.orgId, sql.placeholder('orgId')))
      .orderBy(memory.id);

  it('decodes prepared selects by position exactly as drizzle does, on the pool and in a transaction', async () => {
    // An org of its own: the session test compares the two sides' orgs as they left them.
    const tenant = await createTenant(fast.server.services, fast.server.url, 'Driver decoding');
    const orgId = tenant.orgId;
    for (const body of [{ content: 'A memory with a context', contexts: [{ snippet: 'retro notes' }] }, { content: 'A memory without one' }]) {
      expect((await tenant.owner.api.post('/v1/memory', { body })).status).toBe(201);
    }
    const db = fast.server.database.db;
    const prepared = preparedOn(db, 'test:driver-equivalence', build);
    // The positional decoder is the one in use: its execute is not drizzle's own method.
    expect(prepared.execute).not.toBe(Object.getPrototypeOf(prepared).execute);
    const expected = await build(plain.server.database.db).prepare().execute({ orgId });
    expect(expected.length).toBeGreaterThan(1);
    expect(await prepared.execute({ orgId })).toEqual(expected);
    expect(await inTransaction(db, (tx) => preparedOn(tx, 'test:driver-equivalence', build).execute({ orgId }))).toEqual(expected);
    expect(expected.find((row) => row.snippet === 'retro notes')).toMatchObject({ contextCount: 1, score: '1.5', nothing: null });
    expect(expected[0]!.createdAt).toBeInstanceOf(Date);
    await expect(prepared.execute({})).rejects.toThrow('No value for placeholder "orgId" was provided');
  });

  it('rolls a transaction back and hands back what its work threw, either way', async () => {
    for (const side of [fast, plain]) {
      const failure = new Error('changed my mind');
      const db = side.server.database.db;
      const before = await db.select({ n: sql<number>`COUNT(*)` }).from(memory).where(eq(memory.orgId, side.tenant.orgId));
      await expect(
        inTransaction(db, async (tx) => {
          await tx.update(memory).set({ tags: ['rolled-back'] }).where(eq(memory.orgId, side.tenant.orgId));
          await tx.delete(memory).where(eq(memory.orgId, side.tenant.orgId));
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await db.select({ n: sql<number>`COUNT(*)` }).from(memory).where(eq(memory.orgId, side.tenant.orgId))).toEqual(before);
      const tagged = await db.select({ id: memory.id }).from(memory).where(sql`${memory.orgId} = ${side.tenant.orgId} AND JSON_CONTAINS(${memory.tags}, '"rolled-back"')`);
      expect(tagged).toEqual([]);
    }
  });
});
