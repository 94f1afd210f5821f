import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, expectStatus } from './support/http';
import { startTestServer, type TestServer } from './support/server';
import { createTenant } from './support/tenants';

const OPERATOR_TOKEN = 'operator-token-for-tests-0123456789';
let server: TestServer;
let withoutOperator: TestServer;
const email = (label: string) => `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.test`;

beforeAll(async () => {
  server = await startTestServer({ env: { MEMORY_BANK_OPERATOR_TOKEN: OPERATOR_TOKEN } });
  withoutOperator = await startTestServer();
});
afterAll(async () => {
  await server.close();
  await withoutOperator.close();
});

describe('POST /v1/admin/orgs (operator)', () => {
  it('provisions an org, its owner and a working owner key', async () => {
    const ownerEmail = email('Owner');
    const res = await client(server.url, OPERATOR_TOKEN).post('/v1/admin/orgs', { body: { name: 'Acme', owner: { email: ownerEmail } } });
    expectStatus(res, 201);
    expect(res.body).toMatchObject({
      org: { id: expect.stringMatching(/^org_/), name: 'Acme' },
      user: { id: expect.stringMatching(/^usr_/), email: ownerEmail.toLowerCase(), role: 'owner' },
      api_key: { id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^mbk_/), scopes: expect.arrayContaining(['memory:read', 'memory:write', 'admin']) },
    });
    const owner = client(server.url, res.body.api_key.key);
    expect((await owner.post('/v1/memory', { body: { content: 'first' } })).status).toBe(201);
  });

  it('rejects a wrong or missing operator token and API keys (401)', async () => {
    const tenant = await createTenant(server.services, server.url);
    for (const key of [null, 'wrong-token', tenant.owner.key, OPERATOR_TOKEN + 'x']) {
      const res = await client(server.url, key).post('/v1/admin/orgs', { body: { name: 'x', owner: { email: email('x') } } });
      expectStatus(res, 401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('validates the body', async () => {
    for (const body of [{}, { name: 'x' }, { name: '', owner: { email: email('y') } }, { name: 'x', owner: { email: 'not-an-email' } }]) {
      const res = await client(server.url, OPERATOR_TOKEN).unchecked.post('/v1/admin/orgs', { body });
      expectStatus(res, 400);
    }
  });

  it('answers 404, like an unknown route, when MEMORY_BANK_OPERATOR_TOKEN is not set', async () => {
    const operator = client(withoutOperator.url, OPERATOR_TOKEN);
    const res = await operator.post('/v1/admin/orgs', { body: { name: 'x', owner: { email: email('z') } } });
    const unknown = await operator.unchecked.post('/v1/admin/nothing-here', { body: {} });
    expectStatus(res, 404);
    expect({ ...res.body, request_id: 0 }).toEqual({ ...unknown.body, request_id: 0 });
  });
});

describe('POST /v1/org/members', () => {
  it('lets an owner or admin add a member, who gets a working first key without admin scope', async () => {
    const tenant = await createTenant(server.services, server.url);
    const res = await tenant.owner.api.post('/v1/org/members', { body: { email: email('Member'), role: 'member' } });
    expectStatus(res, 201);
    expect(res.body.user).toMatchObject({ id: expect.stringMatching(/^usr_/), role: 'member' });
    expect(res.body.api_key.key).toMatch(/^mbk_/);
    expect(res.body.api_key.scopes).not.toContain('admin');
    const member = client(server.url, res.body.api_key.key);
    expect((await member.post('/v1/memory', { body: { content: 'member note' } })).status).toBe(201);

    const admin = await tenant.addMember('admin');
    const byAdmin = await admin.api.post('/v1/org/members', { body: { email: email('m2'), role: 'admin' } });
    expectStatus(byAdmin, 201);
    expect(byAdmin.body.api_key.scopes).toContain('admin');
  });

  it('forbids members, and admins making owners (403)', async () => {
    const tenant = await createTenant(server.services, server.url);
    const admin = await tenant.addMember('admin');
    expect((await admin.api.post('/v1/org/members', { body: { email: email('o'), role: 'owner' } })).status).toBe(403);
    expect((await tenant.owner.api.post('/v1/org/members', { body: { email: email('o2'), role: 'owner' } })).status).toBe(201);
    const member = await tenant.addMember('member');
    expect((await member.api.post('/v1/org/members', { body: { email: email('m'), role: 'member' } })).status).toBe(403);
  });

  it('refuses a duplicate email in the same org (409) but allows it in another org', async () => {
    const tenant = await createTenant(server.services, server.url);
    const other = await createTenant(server.services, server.url);
    const address = email('dup');
    expect((await tenant.owner.api.post('/v1/org/members', { body: { email: address, role: 'member' } })).status).toBe(201);
    const again = await tenant.owner.api.post('/v1/org/members', { body: { email: address.toUpperCase(), role: 'member' } });
    expectStatus(again, 409);
    expect((await other.owner.api.post('/v1/org/members', { body: { email: address, role: 'member' } })).status).toBe(201);
  });

  it('validates email and role', async () => {
    const tenant = await createTenant(server.services, server.url);
    for (const body of [{ email: 'nope', role: 'member' }, { email: email('r'), role: 'superuser' }, { role: 'member' }]) {
      expect((await tenant.owner.api.unchecked.post('/v1/org/members', { body })).status).toBe(400);
    }
  });
});
