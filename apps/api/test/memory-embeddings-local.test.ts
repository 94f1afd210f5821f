import { ownerScopeOf } from '@memory-bank/db/system';
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_MODEL_KEY } from '../src/embeddings';
import { bodyOf } from './support/http';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant, type TestUser } from './support/tenants';

/*
 * The local provider: the embedded English model (Universal Sentence Encoder lite) in the
 * worker thread. It finds a memory by a query in other words, embeds only what the service's
 * language detection calls English (other text gets a NULL vector, so nothing asks again) and
 * answers only English queries. A database of its own: the backfill at start reads every org.
 */
let server: TestServer;
let org: TestTenant;

beforeAll(async () => {
  server = await startTestServer({ ownDatabase: true, startEmbeddings: true, env: { EMBEDDINGS_PROVIDER: 'local' } });
  org = await createTenant(server.services, server.url, 'Local model');
});
afterAll(() => server.close());

const scopeOf = (who: TestUser) => ownerScopeOf({ orgId: who.orgId, id: who.userId, role: who.role });
const save = async (who: TestUser, content: string) => bodyOf(await who.api.post('/v1/memory', { body: { content } }), 201).id;

async function vectorOf(id: string): Promise<{ model: string; bytes: number | null } | undefined> {
  const [rows] = await server.database.pool.query<mysql.RowDataPacket[]>('SELECT model, LENGTH(vector) AS bytes FROM memory_vectors WHERE memory_id = ?', [id]);
  return rows[0] as { model: string; bytes: number | null } | undefined;
}

describe('the local model', () => {
  it('finds memories by a query in other words', async () => {
    const sso = await save(org.owner, 'Users cannot log in through SSO since the Okta certificate expired');
    const pto = await save(org.owner, 'PTO and vacation days are requested through the Workday form');
    await save(org.owner, 'Deploys go out on Tuesdays through the blue-green pipeline');
    await save(org.owner, 'The office coffee machine is descaled every month');
    await server.embeddings.idle();
    expect(await vectorOf(sso)).toEqual({ model: LOCAL_MODEL_KEY, bytes: 512 });
    const top = async (query: string) => (await server.embeddings.index.nearest(scopeOf(org.owner), 'all', query, 2))!.map((hit) => hit.memoryId)[0];
    expect(await top("can't sign in")).toBe(sso);
    expect(await top('holiday requests')).toBe(pto);
    expect(server.embeddings.index.calibration.ceiling).toBeGreaterThan(server.embeddings.index.calibration.floor);
  });

  it('answers by meaning only what is near enough: a search about something no memory covers finds nothing', async () => {
    const who = (await createTenant(server.services, server.url, 'Unrelated')).owner;
    const sso = await save(who, 'Users cannot log in through SSO since the Okta certificate expired');
    await save(who, 'Deploys go out on Tuesdays through the blue-green pipeline');
    await save(who, 'The office coffee machine is descaled every month');
    await server.embeddings.idle();
    const search = async (q: string) => bodyOf(await who.api.get(`/v1/memory/search?q=${encodeURIComponent(q)}`), 200).results;
    const found = await search("can't sign in");
    expect(found[0]).toMatchObject({ id: sso, match: { semantic: true, terms: [], highlights: [] } });
    expect(await search('migratory patterns of arctic terns')).toEqual([]);
  });

  it('recalls by meaning too: a prompt in other words brings the memory that answers it', async () => {
    const who = (await createTenant(server.services, server.url, 'Recall by meaning')).owner;
    const pto = await save(who, 'PTO and vacation days are requested through the Workday form two weeks ahead');
    await save(who, 'Deploys go out on Tuesdays through the blue-green pipeline');
    await server.embeddings.idle();
    const recalled = bodyOf(await who.api.post('/v1/recall', { body: { session_id: 'meaning-1', harness: 'claude-code', trigger: 'prompt', prompt: 'how do I ask for holiday leave?' } }), 200);
    expect(recalled.memories.map((memory) => memory.id)).toContain(pto);
  });

  it('embeds only English: other languages get a NULL vector, are not missing, and their queries have no semantic leg', async () => {
    const french = await save(org.owner, 'La rotation des clés de la base de données a lieu chaque trimestre');
    const japanese = await save(org.owner, 'データベースの鍵は四半期ごとに更新します');
    await server.embeddings.idle();
    expect(await vectorOf(french)).toEqual({ model: LOCAL_MODEL_KEY, bytes: null });
    expect(await vectorOf(japanese)).toEqual({ model: LOCAL_MODEL_KEY, bytes: null });
    expect(await server.embeddings.missing()).toBe(0);
    expect(await server.embeddings.index.nearest(scopeOf(org.owner), 'all', 'la rotation des clés', 5)).toBeNull();
    expect(await server.embeddings.index.nearest(scopeOf(org.owner), 'all', '鍵の更新', 5)).toBeNull();
    // Search itself answers them by their words.
    const found = bodyOf(await org.owner.api.get(`/v1/memory/search?q=${encodeURIComponent('rotation des clés')}`), 200).results;
    expect(found.map((result) => result.id)).toContain(french);
  });

  it('embeds what an import stores', async () => {
    const importer = await createTenant(server.services, server.url, 'Local import');
    const lines = ['The harbour crane is inspected every Monday', 'Invoices are approved by the finance lead'].map((content) => JSON.stringify({ content })).join('\n');
    const res = await fetch(`${server.url}/v1/memory/import`, { method: 'POST', headers: { authorization: `Bearer ${importer.owner.key}`, 'content-type': 'application/x-ndjson' }, body: lines });
    expect((await res.json()) as unknown).toMatchObject({ imported: 2 });
    await server.embeddings.idle();
    const hits = await server.embeddings.index.nearest(scopeOf(importer.owner), 'all', 'who signs off on bills', 1);
    const [row] = (await server.database.pool.query<mysql.RowDataPacket[]>('SELECT content FROM memory WHERE id = ?', [hits![0]!.memoryId]))[0];
    expect(row!.content).toBe('Invoices are approved by the finance lead');
  });
});
