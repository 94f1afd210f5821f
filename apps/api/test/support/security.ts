import { API_KEY_SCOPES, type ApiKeyScope } from '@memory-bank/db';
import { beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, expectStatus, request, type TestResponse } from './http';
import type { Template } from './openapi-routes';
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
  template: Template;
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
    /** For the routes about no resource of the victim's (their paths ignore it). */
    let shared: VictimResources;

    const fresh = async (): Promise<VictimResources> => {
      // Text of its own each time: an equal save would be a duplicate of the first.
      const memory = await victim.api.post('/v1/memory', { body: { content: `victim secret note ${sessions}`, contexts: [{ snippet: 's' }] } });
      const key = await victim.api.post('/v1/api-keys', { body: { name: 'victim spare' } });
      const hook = await victim.api.post('/v1/hooks/claude-code', {
        body: { session_id: `victim-session-${sessions++}`, hook_event_name: 'UserPromptSubmit', prompt: 'victim secret prompt', cwd: '/tmp' },
      });
      expectStatus(memory, 201);
      expectStatus(key, 201);
      expectStatus(hook, 202);
      return { memoryId: memory.body.id, apiKeyId: key.body.id, workstreamId: hook.body.workstream_id };
    };

    beforeAll(async () => {
      const server = getServer();
      victimOrg = await createTenant(server.services, server.url, 'victim org');
      victim = await victimOrg.addMember('admin');
      // A plain member: admins may delete members' memories by design (see teams.test.ts).
      colleague = await victimOrg.addMember('member');
      outsider = (await createTenant(server.services, server.url, 'outsider org')).owner;
      const spare = await victim.api.post('/v1/api-keys', { body: { name: 'to revoke' } });
      expectStatus(spare, 201);
      revokedKey = spare.body.key;
      expect((await victim.api.delete(`/v1/api-keys/${spare.body.id}`)).status).toBe(204);
      shared = await fresh();
    });

    /** What the victim checks to see their resource as it was. */
    const untouched: Record<keyof VictimResources, (resources: VictimResources) => Promise<void>> = {
      memoryId: async ({ memoryId }) => expect(bodyOf(await victim.api.get(`/v1/memory/${memoryId}`), 200).content).toMatch(/^victim secret note \d+$/),
      apiKeyId: async ({ apiKeyId }) => expect(bodyOf(await victim.api.get('/v1/api-keys'), 200).api_keys.find((k) => k.id === apiKeyId)?.revoked_at).toBeNull(),
      workstreamId: async ({ workstreamId }) =>
        expect(bodyOf(await victim.api.get(`/v1/workstreams/${workstreamId}/events`), 200).events.map((e) => e.content)).toEqual(['victim secret prompt']),
    };

    for (const route of routes) {
      const label = `${route.method} ${route.template}`;
      describe(label, () => {
        // A route about one resource attacks resources of its own, and each attempt ends by
        // checking them untouched: an attack that worked fails its own test, not the next one.
        let resources: VictimResources;
        beforeAll(async () => {
          resources = route.resource ? await fresh() : shared;
        });
        const call = (key: string | null, overrides: Partial<VictimResources> = {}, headers?: Record<string, string>) =>
          request(getServer().url, route.method, route.path({ ...resources, ...overrides }), { key, body: route.body, headers });
        const stillUntouched = async () => {
          if (route.resource) await untouched[route.resource](resources);
        };

        it('no credentials → 401 with WWW-Authenticate: Bearer', async () => {
          expectUnauthorized(await call(null));
          await stillUntouched();
        });

        it('malformed Authorization → 401', async () => {
          for (const value of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', `Token ${victim.key}`, `Bearer ${victim.key} extra`]) {
            expectUnauthorized(await call(null, {}, { authorization: value }));
          }
          await stillUntouched();
        });

        it('unknown key → 401', async () => {
          expectUnauthorized(await call('mbk_' + 'A'.repeat(40)));
          expectUnauthorized(await call('mbk_short'));
          expectUnauthorized(await call(victim.key.slice(0, -1) + (victim.key.endsWith('A') ? 'B' : 'A')));
          await stillUntouched();
        });

        it('revoked key → 401', async () => {
          expectUnauthorized(await call(revokedKey));
          await stillUntouched();
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
            await stillUntouched();
          });
        }

        if (route.resource) {
          const resource = route.resource;
          it("another user's id, another org's id and a malformed id → the same 404; the victim's own is untouched", async () => {
            const answers = [await call(colleague.key), await call(outsider.key), await call(victim.key, { [resource]: MALFORMED_IDS[resource] })];
            for (const res of answers) {
              expect(res.status).toBe(404);
              expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
            }
            const shape = (res: TestResponse) => ({ ...res.body, request_id: undefined });
            expect(shape(answers[1]!)).toEqual(shape(answers[0]!));
            expect(shape(answers[2]!)).toEqual(shape(answers[0]!));
            await stillUntouched();
          });
        }
      });
    }
  });
}
