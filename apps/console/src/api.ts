import { currentCredential, signOut } from './session';

/**
 * Every call the console makes to the API goes through this module. (Transport to be
 * replaced by @memory-bank/client.)
 */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ApiProblem';
  }
}

type Query = Record<string, string | number | boolean | undefined | null>;

async function call<T>(method: string, path: string, options: { query?: Query; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {}) {
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const credential = currentCredential();
  if (credential) headers.authorization = `Bearer ${credential}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method, headers, body: options.body === undefined ? null : JSON.stringify(options.body), signal: options.signal ?? null });
  if (!response.ok) {
    const problem = (await response.json().catch(() => ({}))) as { code?: string; detail?: string; title?: string };
    if (response.status === 401) signOut();
    throw new ApiProblem(response.status, problem.code ?? 'error', problem.detail ?? problem.title ?? `HTTP ${response.status}`);
  }
  const data = response.status === 204 ? undefined : ((await response.json()) as T);
  return { data: data as T, response };
}

export type Scope = 'user' | 'org';
export type Role = 'owner' | 'admin' | 'member';
export const API_KEY_SCOPES = ['memory:read', 'memory:write', 'hooks:write', 'workstreams:read', 'workstreams:write', 'keys:manage', 'admin'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export interface MemoryContext {
  id: string;
  snippet: string;
  citation: Record<string, unknown> | null;
  conversation_id: string | null;
  message_id: string | null;
  origin: string;
  created_at: string;
}
export interface Memory {
  id: string;
  scope: Scope;
  source: 'api' | 'mcp' | 'hook';
  content: string;
  tags: string[];
  contexts: MemoryContext[];
  created_at: string;
  updated_at: string;
}
export interface Highlight {
  start: number;
  end: number;
  kind: string;
}
export interface SearchResult extends Memory {
  score: number;
  match: { terms: string[]; phrases: string[]; highlights: Highlight[] };
}
export interface MemoryFilters {
  tag?: string | undefined;
  scope?: 'user' | 'org' | 'all' | undefined;
}
export interface Workstream {
  id: string;
  harness: string;
  native_session_id: string;
  cwd: string | null;
  model: string | null;
  event_count: number;
  created_at: string;
  last_event_at: string;
  ended_at: string | null;
}
export interface WorkstreamEvent {
  workstream_id: string;
  sequence: number;
  kind: string;
  role: string;
  event: string;
  tool_name: string | null;
  outcome: string | null;
  content: string;
  occurred_at: string;
}
export interface ToolAction {
  tool_use_id: string | null;
  tool_name: string | null;
  outcome: string;
  call: { sequence: number; content: string; occurred_at: string } | null;
  result: { sequence: number; content: string; occurred_at: string } | null;
}
export interface User {
  id: string;
  email: string;
  role: Role;
  created_at: string;
  removed_at: string | null;
}
export interface MemberMemory {
  id: string;
  scope: Scope;
  tags: string[];
  size: number;
  context_count: number;
  created_at: string;
  updated_at: string;
}
export interface AuditEvent {
  id: string;
  action: string;
  actor: { type: string; user_id: string | null; key_id: string | null };
  target: { type: string; id: string | null };
  counts: Record<string, number> | null;
  request_id: string;
  created_at: string;
}
export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
export interface PurgeCounts {
  memories: number;
  contexts: number;
  workstreams: number;
  segments: number;
}

export const api = {
  listMemories: async (filters: MemoryFilters & { cursor?: string | undefined }) =>
    (await call<{ memories: Memory[]; next_cursor: string | null }>('GET', '/v1/memory', { query: { ...filters, limit: 50 } })).data,
  searchMemories: async (q: string, filters: MemoryFilters, signal?: AbortSignal) =>
    (await call<{ results: SearchResult[] }>('GET', '/v1/memory/search', { query: { q, ...filters, limit: 50 }, ...(signal ? { signal } : {}) })).data.results,
  getMemory: async (id: string) => {
    const { data, response } = await call<Memory>('GET', `/v1/memory/${encodeURIComponent(id)}`);
    return { memory: data, etag: response.headers.get('etag') };
  },
  saveMemory: async (body: { content: string; tags: string[]; scope: Scope }) => (await call<Memory>('POST', '/v1/memory', { body })).data,
  updateMemory: async (id: string, body: { content: string; tags: string[] }, etag: string | null) =>
    (await call<Memory>('PATCH', `/v1/memory/${encodeURIComponent(id)}`, { body, headers: etag ? { 'if-match': etag } : {} })).data,
  deleteMemory: async (id: string) => {
    await call('DELETE', `/v1/memory/${encodeURIComponent(id)}`);
  },

  listWorkstreams: async (cursor?: string) =>
    (await call<{ workstreams: Workstream[]; next_cursor: string | null }>('GET', '/v1/workstreams', { query: { cursor, limit: 50 } })).data,
  getWorkstream: async (id: string) => (await call<Workstream>('GET', `/v1/workstreams/${encodeURIComponent(id)}`)).data,
  workstreamEvents: async (id: string, after?: number) =>
    (await call<{ events: WorkstreamEvent[]; next_after: number | null }>('GET', `/v1/workstreams/${encodeURIComponent(id)}/events`, { query: { after, limit: 100 } })).data,
  workstreamActions: async (id: string) => (await call<{ actions: ToolAction[] }>('GET', `/v1/workstreams/${encodeURIComponent(id)}/actions`)).data.actions,
  searchWorkstreams: async (q: string) => (await call<{ results: WorkstreamEvent[] }>('GET', '/v1/workstreams/search', { query: { q, limit: 50 } })).data.results,
  rememberEvent: async (id: string, sequence: number) =>
    (await call<Memory>('POST', `/v1/workstreams/${encodeURIComponent(id)}/events/${sequence}/remember`, { body: {} })).data,
  deleteWorkstream: async (id: string) => {
    await call('DELETE', `/v1/workstreams/${encodeURIComponent(id)}`);
  },

  /** The org, readable by admins only: what tells the console to show the admin screens. */
  getOrg: async () => (await call<{ id: string; name: string }>('GET', '/v1/org')).data,
  listMembers: async () => (await call<{ members: User[] }>('GET', '/v1/org/members')).data.members,
  addMember: async (body: { email: string; role: Role }) => (await call<{ user: User }>('POST', '/v1/org/members', { body })).data,
  removeMember: async (userId: string) => {
    await call('DELETE', `/v1/org/members/${encodeURIComponent(userId)}`);
  },
  memberMemories: async (userId: string, cursor?: string) =>
    (await call<{ memories: MemberMemory[]; next_cursor: string | null }>('GET', `/v1/admin/members/${encodeURIComponent(userId)}/memories`, { query: { cursor, limit: 50 } })).data,
  purgeMember: async (userId: string) =>
    (await call<{ deleted: PurgeCounts }>('DELETE', `/v1/admin/members/${encodeURIComponent(userId)}/memories`)).data.deleted,
  audit: async (filters: { action?: string | undefined; actor?: string | undefined; cursor?: string | undefined }) =>
    (await call<{ events: AuditEvent[]; next_cursor: string | null }>('GET', '/v1/admin/audit', { query: { ...filters, limit: 50 } })).data,

  listKeys: async () => (await call<{ api_keys: ApiKey[] }>('GET', '/v1/api-keys')).data.api_keys,
  createKey: async (body: { name: string; scopes: ApiKeyScope[] }) => (await call<ApiKey & { key: string }>('POST', '/v1/api-keys', { body })).data,
  revokeKey: async (id: string) => {
    await call('DELETE', `/v1/api-keys/${encodeURIComponent(id)}`);
  },
};
