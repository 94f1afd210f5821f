import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, expectStatus } from './support/http';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant } from './support/tenants';

/*
 * PATCH /v1/org and GET /v1/org: every setting optional but at least one, retention in
 * whole days (1 … 36500) or null, each change audited with its new value, admins only.
 */
let server: TestServer;
let org: TestTenant;

beforeAll(async () => {
  server = await startTestServer();
  org = await createTenant(server.services, server.url, 'Settings org');
});
afterAll(() => server.close());

const auditOf = async (tenant: TestTenant) => bodyOf(await tenant.owner.api.get('/v1/admin/audit?action=org.update'), 200).events;

describe('org settings', () => {
  it('shows every setting with its default', async () => {
    expect(bodyOf(await org.owner.api.get('/v1/org'), 200)).toEqual({
      id: org.orgId,
      name: 'Settings org',
      created_at: expect.any(String),
      redact_memory_secrets: true,
      dedupe_memories: true,
      memory_retention_days: null,
      workstream_retention_days: null,
    });
  });

  it('changes only the settings named, audits each change with its new value in one event, and nothing when nothing changes', async () => {
    const tenant = await createTenant(server.services, server.url);
    const changed = bodyOf(await tenant.owner.api.patch('/v1/org', { body: { memory_retention_days: 30, dedupe_memories: false } }), 200);
    expect(changed).toMatchObject({ redact_memory_secrets: true, dedupe_memories: false, memory_retention_days: 30, workstream_retention_days: null });
    expect(bodyOf(await tenant.owner.api.get('/v1/org'), 200)).toEqual(changed);
    const [first] = await auditOf(tenant);
    expect(first).toMatchObject({
      action: 'org.update',
      actor: { type: 'user', user_id: tenant.owner.userId, key_id: tenant.owner.keyId },
      target: { type: 'org', id: tenant.orgId },
      counts: { memory_retention_days: 30, dedupe_memories: 0 },
    });
    expect(Object.keys(first!.counts ?? {}).sort()).toEqual(['dedupe_memories', 'memory_retention_days']);

    // Values the org already has: no write, no event.
    expectStatus(await tenant.owner.api.patch('/v1/org', { body: { memory_retention_days: 30, redact_memory_secrets: true } }), 200);
    expect(await auditOf(tenant)).toHaveLength(1);

    // Back to "keep": null, audited as 0; the other retention set by an admin.
    const admin = await tenant.addMember('admin');
    const kept = bodyOf(await admin.api.patch('/v1/org', { body: { memory_retention_days: null, workstream_retention_days: 7 } }), 200);
    expect(kept).toMatchObject({ dedupe_memories: false, memory_retention_days: null, workstream_retention_days: 7 });
    const [latest] = await auditOf(tenant);
    expect(latest).toMatchObject({ actor: { user_id: admin.userId }, counts: { memory_retention_days: 0, workstream_retention_days: 7 } });
    expect(await auditOf(tenant)).toHaveLength(2);

    // redact_memory_secrets keeps its behaviour.
    expect(bodyOf(await tenant.owner.api.patch('/v1/org', { body: { redact_memory_secrets: false } }), 200).redact_memory_secrets).toBe(false);
    expect((await auditOf(tenant))[0]).toMatchObject({ counts: { redact_memory_secrets: 0 } });
  });

  it('refuses bad values with a 400 naming the field, and changes nothing', async () => {
    const tenant = await createTenant(server.services, server.url);
    const refused: [Record<string, unknown>, string][] = [
      [{ memory_retention_days: 0 }, 'memory_retention_days'],
      [{ memory_retention_days: -5 }, 'memory_retention_days'],
      [{ workstream_retention_days: 1.5 }, 'workstream_retention_days'],
      [{ workstream_retention_days: 36_501 }, 'workstream_retention_days'],
      [{ memory_retention_days: '30' }, 'memory_retention_days'],
      [{ dedupe_memories: 'no' }, 'dedupe_memories'],
      [{ memory_retention_days: 10, workstream_retention_days: 0 }, 'workstream_retention_days'],
    ];
    for (const [body, field] of refused) {
      const res = await tenant.owner.api.unchecked.patch('/v1/org', { body });
      expectStatus(res, 400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.errors.map((error: { path: string }) => error.path)).toEqual([field]);
    }
    // No setting at all, or one that does not exist.
    for (const body of [{}, { name: 'renamed' }]) expectStatus(await tenant.owner.api.unchecked.patch('/v1/org', { body }), 400);
    expect(bodyOf(await tenant.owner.api.get('/v1/org'), 200)).toMatchObject({ dedupe_memories: true, memory_retention_days: null, workstream_retention_days: null });
    expect(await auditOf(tenant)).toEqual([]);

    // The bounds themselves are accepted.
    expect(bodyOf(await tenant.owner.api.patch('/v1/org', { body: { memory_retention_days: 1, workstream_retention_days: 36_500 } }), 200)).toMatchObject({
      memory_retention_days: 1,
      workstream_retention_days: 36_500,
    });
  });

  it('is for admins and owners: members get 403 and change nothing', async () => {
    const tenant = await createTenant(server.services, server.url);
    const member = await tenant.addMember('member');
    expectStatus(await member.api.get('/v1/org'), 403);
    expectStatus(await member.api.patch('/v1/org', { body: { memory_retention_days: 1 } }), 403);
    // An admin whose key lacks the admin scope acts as a member.
    const admin = await tenant.addMember('admin');
    const narrow = await tenant.keyWithScopes(admin, ['memory:read', 'memory:write']);
    expectStatus(await narrow.api.patch('/v1/org', { body: { workstream_retention_days: 1 } }), 403);
    expect(bodyOf(await tenant.owner.api.get('/v1/org'), 200)).toMatchObject({ memory_retention_days: null, workstream_retention_days: null });
    expect(await auditOf(tenant)).toEqual([]);
  });
});
