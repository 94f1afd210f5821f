import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRouteSecurity, type ProtectedRoute } from './support/security';
import { startTestServer, type TestServer } from './support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Every route behind an API key. A route missing here fails the coverage test below. */
const ROUTES: ProtectedRoute[] = [
  { method: 'POST', template: '/v1/memory', path: () => '/v1/memory', body: { content: 'hello' }, scopes: ['memory:write'] },
  { method: 'GET', template: '/v1/memory', path: () => '/v1/memory', scopes: ['memory:read'] },
  { method: 'GET', template: '/v1/memory/search', path: () => '/v1/memory/search?q=secret', scopes: ['memory:read'] },
  { method: 'GET', template: '/v1/memory/export', path: () => '/v1/memory/export', scopes: ['memory:read'] },
  { method: 'POST', template: '/v1/memory/import', path: () => '/v1/memory/import', body: { content: 'imported' }, scopes: ['memory:write'] },
  { method: 'GET', template: '/v1/memory/{id}', path: (r) => `/v1/memory/${r.memoryId}`, scopes: ['memory:read'], resource: 'memoryId' },
  { method: 'GET', template: '/v1/memory/{id}/history', path: (r) => `/v1/memory/${r.memoryId}/history`, scopes: ['memory:read'], resource: 'memoryId' },
  {
    method: 'PATCH',
    template: '/v1/memory/{id}',
    path: (r) => `/v1/memory/${r.memoryId}`,
    body: { content: 'overwritten by an attacker' },
    scopes: ['memory:write'],
    resource: 'memoryId',
  },
  { method: 'DELETE', template: '/v1/memory/{id}', path: (r) => `/v1/memory/${r.memoryId}`, scopes: ['memory:write'], resource: 'memoryId' },
  { method: 'POST', template: '/v1/api-keys', path: () => '/v1/api-keys', body: { name: 'k' }, scopes: ['keys:manage'] },
  { method: 'GET', template: '/v1/api-keys', path: () => '/v1/api-keys', scopes: ['keys:manage'] },
  { method: 'DELETE', template: '/v1/api-keys/{id}', path: (r) => `/v1/api-keys/${r.apiKeyId}`, scopes: ['keys:manage'], resource: 'apiKeyId' },
  {
    method: 'POST',
    template: '/v1/org/members',
    path: () => '/v1/org/members',
    body: { email: `sec-${Date.now()}@example.test`, role: 'member' },
    scopes: ['admin'],
  },
  {
    method: 'POST',
    template: '/v1/hooks/{harness}',
    path: () => '/v1/hooks/claude-code',
    body: { session_id: 'attacker-session', hook_event_name: 'UserPromptSubmit', prompt: 'hi' },
    scopes: ['hooks:write'],
  },
  {
    method: 'POST',
    template: '/v1/hooks/batch',
    path: () => '/v1/hooks/batch',
    body: { events: [{ harness: 'generic', payload: { session_id: 's', event: 'note', text: 'hi' } }] },
    scopes: ['hooks:write'],
  },
  {
    method: 'POST',
    template: '/v1/recall',
    path: () => '/v1/recall',
    body: { session_id: 'attacker-session', trigger: 'prompt', prompt: 'secret plans' },
    scopes: ['memory:read', 'hooks:write'],
  },
  {
    method: 'POST',
    template: '/v1/hooks/{harness}/recall',
    path: () => '/v1/hooks/claude-code/recall',
    body: { session_id: 'attacker-session', hook_event_name: 'UserPromptSubmit', prompt: 'secret plans' },
    scopes: ['memory:read', 'hooks:write'],
  },
  { method: 'GET', template: '/v1/workstreams', path: () => '/v1/workstreams', scopes: ['workstreams:read'] },
  { method: 'GET', template: '/v1/workstreams/search', path: () => '/v1/workstreams/search?q=secret', scopes: ['workstreams:read'] },
  { method: 'GET', template: '/v1/workstreams/{id}', path: (r) => `/v1/workstreams/${r.workstreamId}`, scopes: ['workstreams:read'], resource: 'workstreamId' },
  {
    method: 'GET',
    template: '/v1/workstreams/{id}/events',
    path: (r) => `/v1/workstreams/${r.workstreamId}/events`,
    scopes: ['workstreams:read'],
    resource: 'workstreamId',
  },
  {
    method: 'GET',
    template: '/v1/workstreams/{id}/actions',
    path: (r) => `/v1/workstreams/${r.workstreamId}/actions`,
    scopes: ['workstreams:read'],
    resource: 'workstreamId',
  },
  {
    method: 'GET',
    template: '/v1/workstreams/{id}/raw',
    path: (r) => `/v1/workstreams/${r.workstreamId}/raw`,
    scopes: ['workstreams:read'],
    resource: 'workstreamId',
  },
  {
    method: 'POST',
    template: '/v1/workstreams/{id}/events/{sequence}/remember',
    path: (r) => `/v1/workstreams/${r.workstreamId}/events/1/remember`,
    body: {},
    scopes: ['workstreams:read', 'memory:write'],
    resource: 'workstreamId',
  },
  {
    method: 'DELETE',
    template: '/v1/workstreams/{id}',
    path: (r) => `/v1/workstreams/${r.workstreamId}`,
    scopes: ['workstreams:write'],
    resource: 'workstreamId',
  },
  // Team administration: cross-org ids and roles are covered by the role matrix (teams.test.ts).
  { method: 'GET', template: '/v1/org/members', path: () => '/v1/org/members', scopes: ['admin'] },
  { method: 'GET', template: '/v1/org', path: () => '/v1/org', scopes: ['admin'] },
  { method: 'PATCH', template: '/v1/org', path: () => '/v1/org', body: { redact_memory_secrets: true }, scopes: ['admin'] },
  { method: 'PATCH', template: '/v1/org/members/{user_id}', path: () => '/v1/org/members/usr_01ARZ3NDEKTSV4RRFFQ69G5FAV', body: { role: 'member' }, scopes: ['admin'] },
  { method: 'DELETE', template: '/v1/org/members/{user_id}', path: () => '/v1/org/members/usr_01ARZ3NDEKTSV4RRFFQ69G5FAV', scopes: ['admin'] },
  {
    method: 'GET',
    template: '/v1/admin/members/{user_id}/memories',
    path: () => '/v1/admin/members/usr_01ARZ3NDEKTSV4RRFFQ69G5FAV/memories',
    scopes: ['admin'],
  },
  {
    method: 'DELETE',
    template: '/v1/admin/members/{user_id}/memories',
    path: () => '/v1/admin/members/usr_01ARZ3NDEKTSV4RRFFQ69G5FAV/memories',
    scopes: ['admin'],
  },
  { method: 'GET', template: '/v1/admin/audit', path: () => '/v1/admin/audit', scopes: ['admin'] },
  // Connected apps and the console's consent API: grants of other people and browsers are covered in mcp-oauth.test.ts.
  { method: 'GET', template: '/v1/oauth/grants', path: () => '/v1/oauth/grants', scopes: ['keys:manage'] },
  { method: 'DELETE', template: '/v1/oauth/grants/{id}', path: () => '/v1/oauth/grants/no-such-grant', scopes: ['keys:manage'] },
  { method: 'GET', template: '/oauth/interaction/{uid}/consent', path: () => '/oauth/interaction/no-such-interaction/consent', scopes: [] },
  { method: 'POST', template: '/oauth/interaction/{uid}/consent', path: () => '/oauth/interaction/no-such-interaction/consent', body: { decision: 'deny' }, scopes: [] },
];

describeRouteSecurity('security of every protected route', () => server, ROUTES);

describe('coverage', () => {
  it('every operation behind bearerAuth in /openapi.json is in the table', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>> };
    const protectedOps: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (op.security?.some((requirement) => 'bearerAuth' in requirement)) protectedOps.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(protectedOps.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.template}`).sort());
  });
});
