import { API_KEY_SCOPES } from '@memory-bank/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../src/auth/api-key-secret';
import { client } from './support/http';
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
    expect(res.status).toBe(201);
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
    expect(list.status).toBe(200);
    const listed = list.body.api_keys.find((k: { id: string }) => k.id === res.body.id);
    expect(listed).toMatchObject({ name: 'ci runner', prefix: res.body.prefix, scopes: ['memory:read'] });
    expect(JSON.stringify(list.body)).not.toContain(res.body.key);
    expect(list.body.api_keys.every((k: Record<string, unknown>) => !('key' in k) && !('key_hash' in k))).toBe(true);
  });

  it('gives a new key the caller scopes by default, and never more than the caller has', async () => {
    const defaulted = await tenant.owner.api.post('/v1/api-keys', { body: { name: 'all' } });
    expect(defaulted.body.scopes.sort()).toEqual([...API_KEY_SCOPES].sort());

    const reader = await tenant.keyWithScopes(tenant.owner, ['memory:read']);
    const escalate = await reader.api.post('/v1/api-keys', { body: { name: 'more', scopes: ['memory:read', 'memory:write'] } });
    expect(escalate.status).toBe(403);
    expect(escalate.body.detail).toContain('memory:write');
    const same = await reader.api.post('/v1/api-keys', { body: { name: 'same' } });
    expect(same.body.scopes).toEqual(['memory:read']);

    const member = await tenant.addMember('member');
    const memberAdmin = await member.api.post('/v1/api-keys', { body: { name: 'x', scopes: ['admin'] } });
    expect(memberAdmin.status).toBe(403);
  });

  it('validates name and scopes', async () => {
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(101) }, { name: 'x', scopes: [] }, { name: 'x', scopes: ['root'] }]) {
      const res = await tenant.owner.api.post('/v1/api-keys', { body });
      expect(res.status).toBe(400);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
  });

  it('revokes a key: it stops working with the very next request', async () => {
    const created = await tenant.owner.api.post('/v1/api-keys', { body: { name: 'short-lived' } });
    const api = client(server.url, created.body.key);
    expect((await api.get('/v1/memory')).status).toBe(200);
    expect((await tenant.owner.api.delete(`/v1/api-keys/${created.body.id}`)).status).toBe(204);
    const after = await api.get('/v1/memory');
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toMatch(/^Bearer/);
    // Idempotent for its owner, and still listed (as revoked).
    expect((await tenant.owner.api.delete(`/v1/api-keys/${created.body.id}`)).status).toBe(204);
    const listed = (await tenant.owner.api.get('/v1/api-keys')).body.api_keys.find((k: { id: string }) => k.id === created.body.id);
    expect(listed.revoked_at).toEqual(expect.any(String));
  });

  it('a key can revoke itself', async () => {
    const created = await tenant.owner.api.post('/v1/api-keys', { body: { name: 'self' } });
    const api = client(server.url, created.body.key);
    expect((await api.delete(`/v1/api-keys/${created.body.id}`)).status).toBe(204);
    expect((await api.get('/v1/api-keys')).status).toBe(401);
  });

  it('records last use', async () => {
    const created = await tenant.owner.api.post('/v1/api-keys', { body: { name: 'used' } });
    await client(server.url, created.body.key).get('/v1/memory');
    await expect
      .poll(async () => (await tenant.owner.api.get('/v1/api-keys')).body.api_keys.find((k: { id: string }) => k.id === created.body.id).last_used_at)
      .toEqual(expect.any(String));
  });
});
