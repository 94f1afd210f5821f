import { API_KEY_SCOPES, type ApiKeyScope } from '@memory-bank/db';
import { describe, expect, it } from 'vitest';
import { request, type TestResponse } from './http';
import type { TestServer } from './server';
import { createTenant, type TestTenant, type TestUser } from './tenants';

/** What a route needs from the world to be called: ids of resources the victim owns. */
export interface VictimResources {
  memoryId: string;
  apiKeyId: string;
  workstreamId: string;
}

export interface ProtectedRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The OpenAPI path template, e.g. /v1/memory/{id}. */
  template: string;
  /** The concrete path, given the victim's resources (or a malformed id). */
  path: (resources: VictimResources) => string;
  body?: unknown;
  scopes: ApiKeyScope[];
  /** For routes about one resource: the id in the path must be the victim's. */
  resource?: keyof VictimResources;
}

const expectUnauthorized = (res: TestResponse) => {
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status: 401, request_id: res.headers.get('x-request-id') });
};

const MALFORMED_IDS: Record<keyof VictimResources, string> = {
  memoryId: 'not-an-id',
  apiKeyId: "key_' OR 1=1 --",
  workstreamId: 'ws_%25',
};

let sessions = 0;

/**
 * The security cases every protected route must pass: no key, bad key, revoked key,
 * missing scope, another user's resource, another org's resource, malformed id. One
 * helper, run over every route.
 */
export function describeRouteSecurity(name: string, getServer: () => TestServer, routes: ProtectedRoute[]) {
  describe(name, () => {
    let victimOrg: TestTenant;
    let victim: TestUser;
    let colleague: TestUser;
    let outsider: TestUser;
    let revokedKey: string;
    let resources: VictimResources;

    const fresh = async (): Promise<VictimResources> => {
      const memory = await victim.api.post('/v1/memory', { body: { content: 'victim secret note', contexts: [{ snippet: 's' }] } });
      const key = await victim.api.post('/v1/api-keys', { body: { name: 'victim spare' } });
      const hook = await victim.api.post('/v1/hooks/claude-code', {
        body: { session_id: `victim-session-${sessions++}`, hook_event_name: 'UserPromptSubmit', prompt: 'victim secret prompt', cwd: '/tmp' },
      });
      expect(memory.status).toBe(201);
      expect(key.status).toBe(201);
      expect(hook.status).toBe(202);
      return { memoryId: memory.body.id, apiKeyId: key.body.id, workstreamId: hook.body.workstream_id };
    };

    it('setup', async () => {
      const server = getServer();
      victimOrg = await createTenant(server.services, server.url, 'victim org');
      victim = await victimOrg.addMember('admin');
      // A plain member: admins may delete members' memories by design (see teams.test.ts).
      colleague = await victimOrg.addMember('member');
      outsider = (await createTenant(server.services, server.url, 'outsider org')).owner;
      const spare = await victim.api.post('/v1/api-keys', { body: { name: 'to revoke' } });
      revokedKey = spare.body.key;
      expect((await victim.api.delete(`/v1/api-keys/${spare.body.id}`)).status).toBe(204);
      resources = await fresh();
    });

    for (const route of routes) {
      const label = `${route.method} ${route.template}`;
      const call = (key: string | null, overrides: Partial<VictimResources> = {}, headers?: Record<string, string>) =>
        request(getServer().url, route.method, route.path({ ...resources, ...overrides }), { key, body: route.body, headers });

      describe(label, () => {
        it('no credentials → 401 with WWW-Authenticate: Bearer', async () => {
          expectUnauthorized(await call(null));
        });

        it('malformed Authorization → 401', async () => {
          for (const value of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', `Token ${victim.key}`, `Bearer ${victim.key} extra`]) {
            expectUnauthorized(await call(null, {}, { authorization: value }));
          }
        });

        it('unknown key → 401', async () => {
          expectUnauthorized(await call('mbk_' + 'A'.repeat(40)));
          expectUnauthorized(await call('mbk_short'));
          expectUnauthorized(await call(victim.key.slice(0, -1) + (victim.key.endsWith('A') ? 'B' : 'A')));
        });

        it('revoked key → 401', async () => {
          expectUnauthorized(await call(revokedKey));
        });

        if (route.scopes.length > 0) {
          it(`key lacking any of ${route.scopes.join(', ')} → 403`, async () => {
            for (const needed of route.scopes) {
              const limited = await victimOrg.keyWithScopes(victim, API_KEY_SCOPES.filter((scope) => scope !== needed));
              const res = await call(limited.key);
              expect(res.status, `without ${needed}`).toBe(403);
              expect(res.body).toMatchObject({ status: 403 });
              expect(res.headers.get('www-authenticate'), `without ${needed}`).toMatch(/error="insufficient_scope"/);
            }
          });
        }

        if (route.resource) {
          const resource = route.resource;
          it("another user's id, another org's id and a malformed id → the same 404", async () => {
            const answers = [await call(colleague.key), await call(outsider.key), await call(victim.key, { [resource]: MALFORMED_IDS[resource] })];
            for (const res of answers) {
              expect(res.status).toBe(404);
              expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
            }
            const shape = (res: TestResponse) => ({ ...res.body, request_id: undefined });
            expect(shape(answers[1]!)).toEqual(shape(answers[0]!));
            expect(shape(answers[2]!)).toEqual(shape(answers[0]!));
          });

          it("the victim's own resource is untouched by the others' attempts", async () => {
            const own = await victim.api.get(
              { memoryId: `/v1/memory/${resources.memoryId}`, apiKeyId: '/v1/api-keys', workstreamId: `/v1/workstreams/${resources.workstreamId}/events` }[resource],
            );
            expect(own.status).toBe(200);
            if (resource === 'memoryId') expect(own.body.content).toBe('victim secret note');
            else if (resource === 'apiKeyId') expect(own.body.api_keys.find((k: { id: string }) => k.id === resources.apiKeyId)?.revoked_at).toBeNull();
            else expect(own.body.events.map((e: { content: string }) => e.content)).toEqual(['victim secret prompt']);
            // Leave fresh resources for the next route (this one may have deleted them).
            resources = await fresh();
          });
        }
      });
    }
  });
}
