import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_KEY_SCOPES } from '@memory-bank/db';
import { MIGRATIONS_FOLDER, dropDatabase, ensureDatabase, migrateDatabase, openDatabase } from '@memory-bank/db/system';
import { drizzle } from 'drizzle-orm/mysql2';
import { migrate } from 'drizzle-orm/mysql2/migrator';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hashApiKey } from '../src/auth/api-key-secret';
import { bodyOf, client, expectStatus } from './support/http';
import { freshDatabaseUrl } from './support/database';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant } from './support/tenants';

let server: TestServer;
let tenant: TestTenant;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.services, server.url);
});
afterAll(() => server.close());

describe('API keys', () => {
  it('creates a key shown once, stores only its hash and a display prefix', async () => {
    const res = await tenant.owner.api.post('/v1/api-keys', { body: { name: 'ci runner', scopes: ['memory:read'] } });
    expectStatus(res, 201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^key_/),
      name: 'ci runner',
      key: expect.stringMatching(/^mbk_[A-Za-z0-9_-]{40}$/),
      prefix: expect.stringMatching(/^mbk_.{8}$/),
      scopes: ['memory:read'],
      revoked_at: null,
    });
    expect(res.body.key.startsWith(res.body.prefix)).toBe(true);

    const [rows] = await server.database.pool.query('SELECT * FROM api_keys WHERE id = ?', [res.body.id]);
    const row = (rows as Record<string, unknown>[])[0]!;
    expect(row.key_hash).toBe(hashApiKey(res.body.key));
    expect(JSON.stringify(row)).not.toContain(res.body.key);

    const list = await tenant.owner.api.get('/v1/api-keys');
    expectStatus(list, 200);
    const listed = list.body.api_keys.find((k) => k.id === res.body.id);
    expect(listed).toMatchObject({ name: 'ci runner', prefix: res.body.prefix, scopes: ['memory:read'] });
    expect(JSON.stringify(list.body)).not.toContain(res.body.key);
    expect(list.body.api_keys.every((k: Record<string, unknown>) => !('key' in k) && !('key_hash' in k))).toBe(true);
  });

  it('gives a new key the caller scopes by default, and never more than the caller has', async () => {
    const defaulted = await tenant.owner.api.post('/v1/api-keys', { body: { name: 'all' } });
    expectStatus(defaulted, 201);
    expect(defaulted.body.scopes.sort()).toEqual([...API_KEY_SCOPES].sort());

    const reader = await tenant.keyWithScopes(tenant.owner, ['memory:read', 'keys:manage']);
    const escalate = await reader.api.post('/v1/api-keys', { body: { name: 'more', scopes: ['memory:read', 'memory:write'] } });
    expectStatus(escalate, 403);
    expect(escalate.body.detail).toContain('memory:write');
    const same = await reader.api.post('/v1/api-keys', { body: { name: 'same' } });
    expectStatus(same, 201);
    expect(same.body.scopes.sort()).toEqual(['keys:manage', 'memory:read']);

    const member = await tenant.addMember('member');
    const memberAdmin = await member.api.post('/v1/api-keys', { body: { name: 'x', scopes: ['admin'] } });
    expectStatus(memberAdmin, 403);
  });

  it('validates name and scopes', async () => {
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(101) }, { name: 'x', scopes: [] }, { name: 'x', scopes: ['root'] }]) {
      const res = await tenant.owner.api.unchecked.post('/v1/api-keys', { body });
      expectStatus(res, 400);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
  });

  it('revokes a key: it stops working with the very next request', async () => {
    const created = await tenant.owner.api.post('/v1/api-keys', { body: { name: 'short-lived' } });
    expectStatus(created, 201);
    const api = client(server.url, created.body.key);
    expect((await api.get('/v1/memory')).status).toBe(200);
    expect((await tenant.owner.api.delete(`/v1/api-keys/${created.body.id}`)).status).toBe(204);
    const after = await api.get('/v1/memory');
    expectStatus(after, 401);
    expect(after.headers.get('www-authenticate')).toMatch(/^Bearer/);
    // Idempotent for its owner, and still listed (as revoked).
    expect((await tenant.owner.api.delete(`/v1/api-keys/${created.body.id}`)).status).toBe(204);
    const listed = bodyOf(await tenant.owner.api.get('/v1/api-keys'), 200).api_keys.find((k) => k.id === created.body.id);
    expect(listed?.revoked_at).toEqual(expect.any(String));
  });

  it('a key can revoke itself', async () => {
    const created = await tenant.owner.api.post('/v1/api-keys', { body: { name: 'self' } });
    expectStatus(created, 201);
    const api = client(server.url, created.body.key);
    expect((await api.delete(`/v1/api-keys/${created.body.id}`)).status).toBe(204);
    expect((await api.get('/v1/api-keys')).status).toBe(401);
  });

  it('a narrow key cannot manage its user\'s other keys, but can revoke itself', async () => {
    const hooksOnly = await tenant.keyWithScopes(tenant.owner, ['hooks:write']);
    const revokeMain = await hooksOnly.api.delete(`/v1/api-keys/${tenant.owner.keyId}`);
    expectStatus(revokeMain, 403);
    expect(revokeMain.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="keys:manage"/);
    // The owner's main key still works.
    expect((await tenant.owner.api.get('/v1/api-keys')).status).toBe(200);
    // Neither an unknown id nor a malformed one tells a narrow key anything more.
    expect((await hooksOnly.api.delete('/v1/api-keys/key_01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(403);
    expect((await hooksOnly.api.get('/v1/api-keys')).status).toBe(403);
    expect((await hooksOnly.api.post('/v1/api-keys', { body: { name: 'x', scopes: ['hooks:write'] } })).status).toBe(403);

    expect((await hooksOnly.api.delete(`/v1/api-keys/${hooksOnly.keyId}`)).status).toBe(204);
    expect((await hooksOnly.api.post('/v1/hooks/claude-code', { body: { session_id: 's', hook_event_name: 'Stop' } })).status).toBe(401);
  });

  it('keys:manage comes with the keys of every role and the key printed by org creation', async () => {
    const fresh = await createTenant(server.services, server.url);
    const scopesOf = async (user: { api: typeof fresh.owner.api; keyId: string }) =>
      bodyOf(await user.api.get('/v1/api-keys'), 200).api_keys.find((k) => k.id === user.keyId)?.scopes;
    expect(await scopesOf(fresh.owner)).toContain('keys:manage');
    expect(await scopesOf(await fresh.addMember('admin'))).toContain('keys:manage');
    expect(await scopesOf(await fresh.addMember('member'))).toContain('keys:manage');
  });

  it('records last use', async () => {
    const created = await tenant.owner.api.post('/v1/api-keys', { body: { name: 'used' } });
    expectStatus(created, 201);
    await client(server.url, created.body.key).get('/v1/memory');
    await expect
      .poll(async () => bodyOf(await tenant.owner.api.get('/v1/api-keys'), 200).api_keys.find((k) => k.id === created.body.id)?.last_used_at)
      .toEqual(expect.any(String));
  });
});

describe('keys made before keys:manage existed', () => {
  it('the migration grants it to keys with the full scopes of that time, not to narrower ones', async () => {
    // The migrations up to the one adding keys:manage, from a copy of the folder with a shorter journal.
    const before = mkdtempSync(join(tmpdir(), 'mb-migrations-'));
    cpSync(MIGRATIONS_FOLDER, before, { recursive: true });
    const journalPath = join(before, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    journal.entries = journal.entries.filter((entry) => entry.tag < '0010');
    writeFileSync(journalPath, JSON.stringify(journal));

    const url = freshDatabaseUrl(inject('databaseServerUrl'), 'keys');
    await ensureDatabase(url);
    const handle = openDatabase(url, { poolSize: 2 });
    try {
      await migrate(drizzle(handle.pool), { migrationsFolder: before, migrationsTable: '__drizzle_migrations' });
      const pool = handle.pool;
      await pool.query("INSERT INTO orgs (id, name, created_at) VALUES ('org_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'old', NOW(3))");
      await pool.query(
        "INSERT INTO users (id, org_id, email, role, created_at) VALUES ('usr_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'org_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'o@example.test', 'owner', NOW(3))",
      );
      const oldKeys: Record<string, string[]> = {
        key_01ARZ3NDEKTSV4RRFFQ69G5FA1: ['memory:read', 'memory:write', 'hooks:write', 'workstreams:read', 'workstreams:write', 'admin'],
        key_01ARZ3NDEKTSV4RRFFQ69G5FA2: ['memory:read', 'memory:write', 'hooks:write', 'workstreams:read', 'workstreams:write'],
        key_01ARZ3NDEKTSV4RRFFQ69G5FA3: ['hooks:write'],
        key_01ARZ3NDEKTSV4RRFFQ69G5FA4: ['memory:read', 'memory:write', 'admin'],
      };
      for (const [id, scopes] of Object.entries(oldKeys)) {
        await pool.query(
          "INSERT INTO api_keys (id, org_id, user_id, name, key_hash, display_prefix, scopes, created_at) VALUES (?, 'org_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'old', ?, 'mbk_x', ?, NOW(3))",
          [id, id.padEnd(64, '0').slice(0, 64), JSON.stringify(scopes)],
        );
      }

      await migrateDatabase(pool);
      const [rows] = await pool.query('SELECT id, scopes FROM api_keys ORDER BY id');
      const after = Object.fromEntries(
        (rows as { id: string; scopes: string | string[] }[]).map((row) => [row.id, typeof row.scopes === 'string' ? JSON.parse(row.scopes) : row.scopes]),
      );
      expect(after).toEqual({
        key_01ARZ3NDEKTSV4RRFFQ69G5FA1: [...oldKeys.key_01ARZ3NDEKTSV4RRFFQ69G5FA1!, 'keys:manage'],
        key_01ARZ3NDEKTSV4RRFFQ69G5FA2: [...oldKeys.key_01ARZ3NDEKTSV4RRFFQ69G5FA2!, 'keys:manage'],
        key_01ARZ3NDEKTSV4RRFFQ69G5FA3: ['hooks:write'],
        key_01ARZ3NDEKTSV4RRFFQ69G5FA4: ['memory:read', 'memory:write', 'admin'],
      });
    } finally {
      await handle.close();
      await dropDatabase(url);
      rmSync(before, { recursive: true, force: true });
    }
  });
});
