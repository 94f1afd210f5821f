import { orgScopeOf, releaseMaintenanceLease, takeMaintenanceLease } from '@memory-bank/db/system';
import type mysql from 'mysql2/promise';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../src/archive/doctor';
import { BACKFILL_JOB } from '../src/embeddings';
import { createLogger } from '../src/logger';
import { openAiEnv, startEmbeddingsServer, type EmbeddingsTestServer } from './support/embeddings-server';
import { bodyOf } from './support/http';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';

/*
 * The backfill: memories saved without a vector (here: while the provider was `none`) are
 * embedded in the background, org by org, under a lease one replica holds; a run skips what
 * is done, so a run cut short resumes; a different model re-embeds everything. Doctor and
 * /metrics say how far it is. A database of its own: the backfill reads every org.
 */
const METRICS_TOKEN = 'metrics-token-for-the-backfill-tests';
let embeddingsServer: EmbeddingsTestServer;
/** Saves memories without embedding them. */
let lexical: TestServer;
let replica: TestServer;

beforeAll(async () => {
  embeddingsServer = await startEmbeddingsServer();
  lexical = await startTestServer({ ownDatabase: true });
  replica = await startTestServer({ databaseUrl: lexical.config.DATABASE_URL, env: openAiEnv(embeddingsServer, { METRICS_TOKEN }) });
});
afterAll(async () => {
  await replica.close();
  await lexical.close();
  await embeddingsServer.close();
});

async function vectorModels(): Promise<Record<string, number>> {
  const [rows] = await lexical.database.pool.query<mysql.RowDataPacket[]>('SELECT model, COUNT(*) AS n FROM memory_vectors GROUP BY model');
  return Object.fromEntries(rows.map((row) => [row.model, Number(row.n)]));
}

async function saveMany(who: TestUser, count: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(bodyOf(await who.api.post('/v1/memory', { body: { content: `The ${label} note ${i} about the harbour crane schedule` } }), 201).id);
  return ids;
}

async function scrape(server: TestServer): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const values: Record<string, number> = {};
  for (const family of parsePrometheusTextFormat(text) as { name: string; metrics: { labels?: Record<string, string>; value?: string; count?: string }[] }[]) {
    if (!family.name.startsWith('memory_bank_embedding') && !family.name.startsWith('memory_bank_semantic')) continue;
    for (const metric of family.metrics) values[[family.name, ...Object.values(metric.labels ?? {})].join(' ')] = Number(metric.value ?? metric.count);
  }
  return values;
}

const silent = createLogger({ LOG_LEVEL: 'silent' });
const doctor = (server: TestServer, repair = false) =>
  runDoctor(
    { db: server.database.db, store: server.store, archiver: server.archiver, embeddings: server.embeddings, clock: { now: () => new Date() }, logger: silent, migrate: async () => {} },
    { repair },
  ).then((report) => report.findings.find((finding) => finding.check === 'embeddings')!);

describe('the embedding backfill', () => {
  let first: string[];
  let second: string[];

  beforeAll(async () => {
    const one = await createTenant(lexical.services, lexical.url, 'Backfill one');
    const two = await createTenant(lexical.services, lexical.url, 'Backfill two');
    first = await saveMany(one.owner, 5, 'first');
    second = await saveMany(two.owner, 4, 'second');
    // One memory in a language the bag-of-words server serves too: every language is embedded by `openai`.
    second.push(bodyOf(await two.owner.api.post('/v1/memory', { body: { content: 'La grue du port est révisée chaque lundi' } }), 201).id);
  });

  it('waits while another replica holds the lease, then embeds what is missing in every org, a second run nothing', async () => {
    expect(await vectorModels()).toEqual({});
    expect(await replica.embeddings.missing()).toBe(first.length + second.length);
    const other = { job: BACKFILL_JOB, holder: 'another-replica' };
    const now = new Date();
    expect(await takeMaintenanceLease(lexical.database.db, other, now, new Date(now.getTime() + 60_000))).toBe(true);
    try {
      expect(await replica.embeddings.backfill!.tryRun()).toBe(false);
      expect(await vectorModels()).toEqual({});
      const held = await doctor(replica);
      expect(held).toMatchObject({ ok: true, detail: expect.stringContaining('held by another-replica') });
    } finally {
      await releaseMaintenanceLease(lexical.database.db, other);
    }
    // Some were embedded before (a run cut short, or saves of this process): the run skips them.
    replica.embeddings.memoriesWritten(orgScopeOf({ id: (await replica.database.pool.query<mysql.RowDataPacket[]>('SELECT org_id FROM memory WHERE id = ?', [first[0]]))[0][0]!.org_id }), first.slice(0, 2));
    await replica.embeddings.idle();
    expect(await vectorModels()).toEqual({ 'openai:bag-of-words:default': 2 });

    expect(await replica.embeddings.backfill!.tryRun()).toBe(true);
    expect(replica.embeddings.backfill!.progress()).toMatchObject({ running: false, orgsDone: 2, orgsTotal: 2, embedded: first.length + second.length - 2 });
    expect(await vectorModels()).toEqual({ 'openai:bag-of-words:default': first.length + second.length });
    expect(await replica.embeddings.missing()).toBe(0);

    expect(await replica.embeddings.backfill!.tryRun()).toBe(true);
    expect(replica.embeddings.backfill!.progress().embedded).toBe(0);
    expect(await doctor(replica)).toMatchObject({ ok: true, detail: expect.stringMatching(/provider openai, model openai:bag-of-words:default; 0 memories without a current vector; backfill lease: free/) });

    const metrics = await scrape(replica);
    expect(metrics['memory_bank_embeddings_info openai openai:bag-of-words:default']).toBe(1);
    expect(metrics['memory_bank_embeddings_missing']).toBe(0);
    expect(metrics['memory_bank_embedding_backfill orgs_done']).toBe(2);
    expect(metrics['memory_bank_embeddings_stored_total embedded']).toBe(first.length + second.length);
    expect(metrics['memory_bank_embedding_lag_seconds']).toBe(2);
  });

  it('re-embeds every memory when the model changes, one vector per memory', async () => {
    const changed = await startTestServer({ databaseUrl: lexical.config.DATABASE_URL, env: openAiEnv(embeddingsServer, { EMBEDDINGS_DIMENSIONS: '32' }) });
    try {
      const total = first.length + second.length;
      expect(await changed.embeddings.missing()).toBe(total);
      expect(await changed.embeddings.backfill!.tryRun()).toBe(true);
      expect(await vectorModels()).toEqual({ 'openai:bag-of-words:32': total });
      // The replica still on the old model sees everything missing again: its next sweep would switch it back.
      expect(await replica.embeddings.missing()).toBe(total);
    } finally {
      await changed.close();
    }
  });

  it('doctor: memories without a vector for long and no replica embedding them are unhealthy; --repair runs the backfill', async () => {
    const later = { now: () => new Date(Date.now() + 3600_000) };
    const report = (repair: boolean) =>
      runDoctor(
        { db: replica.database.db, store: replica.store, archiver: replica.archiver, embeddings: replica.embeddings, clock: later, logger: silent, migrate: async () => {} },
        { repair },
      ).then((result) => result.findings.find((finding) => finding.check === 'embeddings')!);
    expect(await report(false)).toMatchObject({ ok: false, detail: expect.stringContaining('is an API process running') });
    const repaired = await report(true);
    expect(repaired).toMatchObject({ ok: true, repaired: expect.stringContaining('ran the embedding backfill') });
    expect(await replica.embeddings.missing()).toBe(0);
  });
});
