import { createMemoryBankClient, FIELD_LIMITS, MemoryBankError, ok, type components, type operations } from '@memory-bank/client';
import { currentCredential } from './session';

/**
 * Every call the console makes goes through @memory-bank/client (typed from the service's
 * OpenAPI document; retries, Idempotency-Key and problem+json errors included). The
 * credential is read per request, so signing in or out needs no new client.
 */
const client = createMemoryBankClient({ token: () => currentCredential() });

export { FIELD_LIMITS, MemoryBankError };
type Schemas = components['schemas'];
export type Memory = Schemas['Memory'];
export type MemoryContext = Schemas['MemoryContext'];
export type NewMemory = Pick<Schemas['CreateMemory'], 'content' | 'tags' | 'scope' | 'contexts'>;
export type CreatedMemory = Schemas['CreatedMemory'];
export type SimilarMemory = CreatedMemory['similar'][number];
/** What the console changes on a memory: its text and tags, its expiry (null: never), its pin. */
export type MemoryChange = Pick<Schemas['UpdateMemory'], 'content' | 'tags' | 'expires_at' | 'pinned'>;
export type Org = Schemas['Org'];
export type OrgChange = Schemas['UpdateOrg'];
export type SearchResult = Schemas['MemorySearchResult'];
export type Highlight = Schemas['SearchHighlight'];
export type Workstream = Schemas['Workstream'];
export type AuditEvent = Schemas['AuditEvent'];
export type MemoryMetadata = Schemas['MemoryMetadata'];
export type ApiKey = Schemas['ApiKey'];
export type User = Schemas['User'];
export type Role = User['role'];
export type Scope = Memory['scope'];
export type ApiKeyScope = ApiKey['scopes'][number];
export type OAuthGrant = Schemas['OAuthGrant'];
export type ConsentRequest = Schemas['OAuthConsentRequest'];
export type ConsentDecision = operations['postOAuthConsent']['requestBody']['content']['application/json']['decision'];

/** The scopes a key can be given, in the order the form lists them. */
export const API_KEY_SCOPES = ['memory:read', 'memory:write', 'hooks:write', 'workstreams:read', 'workstreams:write', 'keys:manage', 'admin'] as const satisfies readonly ApiKeyScope[];
// Fails to compile when the API gains a scope the list lacks.
const everyScopeListed: Exclude<ApiKeyScope, (typeof API_KEY_SCOPES)[number]> extends never ? true : never = true;
void everyScopeListed;

export interface MemoryFilters {
  tag?: string | undefined;
  scope?: 'user' | 'org' | 'all' | undefined;
  source?: Memory['source'] | undefined;
  /** `'true'`: replaced versions too, each with `superseded_by`. */
  include_superseded?: 'true' | undefined;
}

const PAGE = 50;

export const api = {
  listMemories: (filters: MemoryFilters & { cursor?: string | undefined }) => ok(client.GET('/v1/memory', { params: { query: { ...filters, limit: PAGE } } })),
  /** The results, and the query as it was also searched when some of its words were corrected. */
  searchMemories: async (q: string, filters: MemoryFilters, signal?: AbortSignal) =>
    ok(client.GET('/v1/memory/search', { params: { query: { ...filters, q, limit: PAGE } }, ...(signal ? { signal } : {}) })),
  getMemory: async (id: string) => {
    const { data, response } = await client.GET('/v1/memory/{id}', { params: { path: { id } } });
    return { memory: data!, etag: response.headers.get('etag') };
  },
  saveMemory: (body: NewMemory) => ok(client.POST('/v1/memory', { body })),
  /** The changed memory and its new ETag (so a next change needs no reload). */
  updateMemory: async (id: string, body: MemoryChange, etag: string | null) => {
    const { data, response } = await client.PATCH('/v1/memory/{id}', { params: { path: { id }, header: etag ? { 'if-match': etag } : {} }, body });
    return { memory: data!, etag: response.headers.get('etag') };
  },
  /** Every version of the memory's chain, newest first. */
  memoryHistory: async (id: string) => (await ok(client.GET('/v1/memory/{id}/history', { params: { path: { id } } }))).memories,
  deleteMemory: async (id: string) => {
    await client.DELETE('/v1/memory/{id}', { params: { path: { id } } });
  },

  listWorkstreams: (cursor?: string) => ok(client.GET('/v1/workstreams', { params: { query: { cursor, limit: PAGE } } })),
  getWorkstream: (id: string) => ok(client.GET('/v1/workstreams/{id}', { params: { path: { id } } })),
  workstreamEvents: (id: string, after?: number) => ok(client.GET('/v1/workstreams/{id}/events', { params: { path: { id }, query: { after, limit: 100 } } })),
  workstreamActions: async (id: string) => (await ok(client.GET('/v1/workstreams/{id}/actions', { params: { path: { id } } }))).actions,
  searchWorkstreams: async (q: string) => (await ok(client.GET('/v1/workstreams/search', { params: { query: { q, limit: PAGE } } }))).results,
  rememberEvent: (id: string, sequence: number) => ok(client.POST('/v1/workstreams/{id}/events/{sequence}/remember', { params: { path: { id, sequence } }, body: {} })),
  deleteWorkstream: async (id: string) => {
    await client.DELETE('/v1/workstreams/{id}', { params: { path: { id } } });
  },

  /** The org, readable by admins only: what tells the console to show the admin screens. */
  getOrg: () => ok(client.GET('/v1/org')),
  updateOrg: (body: OrgChange) => ok(client.PATCH('/v1/org', { body })),
  listMembers: async () => (await ok(client.GET('/v1/org/members'))).members,
  addMember: (body: { email: string; role: Role }) => ok(client.POST('/v1/org/members', { body })),
  changeRole: (userId: string, role: Role) => ok(client.PATCH('/v1/org/members/{user_id}', { params: { path: { user_id: userId } }, body: { role } })),
  removeMember: async (userId: string) => {
    await client.DELETE('/v1/org/members/{user_id}', { params: { path: { user_id: userId } } });
  },
  memberMemories: (userId: string, cursor?: string) =>
    ok(client.GET('/v1/admin/members/{user_id}/memories', { params: { path: { user_id: userId }, query: { cursor, limit: PAGE } } })),
  purgeMember: async (userId: string) => (await ok(client.DELETE('/v1/admin/members/{user_id}/memories', { params: { path: { user_id: userId } } }))).deleted,
  audit: (filters: { action?: string | undefined; actor?: string | undefined; since?: string | undefined; until?: string | undefined; cursor?: string | undefined }) =>
    ok(client.GET('/v1/admin/audit', { params: { query: { ...filters, limit: PAGE } } })),

  /** The export as an NDJSON file (one memory per line, as the API sent it) and how many memories it holds. */
  exportMemories: async (scope: NonNullable<MemoryFilters['scope']>) => {
    const lines: string[] = [];
    for await (const memory of client.exportMemories({ scope })) lines.push(`${JSON.stringify(memory)}\n`);
    return { file: new Blob(lines, { type: 'application/x-ndjson' }), count: lines.length };
  },
  importMemories: (file: Blob) => client.importMemories(file),

  /** The signed-in person's connected apps, or (admins, `all`) the whole org's. */
  listGrants: async (all: boolean) => (await ok(client.GET('/v1/oauth/grants', { params: { query: all ? { all: 'true' } : {} } }))).grants,
  revokeGrant: async (id: string) => {
    await client.DELETE('/v1/oauth/grants/{id}', { params: { path: { id } } });
  },
  /** What an app asks for in a pending authorization; the interaction's cookie goes with it (same origin). */
  getConsent: (uid: string) => ok(client.GET('/oauth/interaction/{uid}/consent', { params: { path: { uid } } })),
  decideConsent: (uid: string, decision: ConsentDecision) => ok(client.POST('/oauth/interaction/{uid}/consent', { params: { path: { uid } }, body: { decision } })),

  listKeys: async () => (await ok(client.GET('/v1/api-keys'))).api_keys,
  createKey: (body: { name: string; scopes: ApiKeyScope[] }) => ok(client.POST('/v1/api-keys', { body })),
  revokeKey: async (id: string) => {
    await client.DELETE('/v1/api-keys/{id}', { params: { path: { id } } });
  },
};
