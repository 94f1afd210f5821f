import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@memory-bank/db/system';
import { pino } from 'pino';
import { inject } from 'vitest';
import { RECALL_LIMITS, RECALL_RANKING } from '../src/limits';
import type { Principal } from '../src/auth/principal';
import { createMemoryUseService } from '../src/services/memory-use';
import { rankForRecall, recallBoost, type RankableMemory } from '../src/services/recall-ranking';
import { newSessionId } from './support/hooks';
import { bodyOf, client, expectStatus, type RequestBody } from './support/http';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The app's clock: the test moves it forward instead of waiting. */
let ahead = 0;
const now = () => new Date(Date.now() + ahead);

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ clock: { now } });
});
afterAll(() => server.close());

const newUser = async () => (await createTenant(server.services, server.url)).owner;

type SaveBody = RequestBody<'post', '/v1/memory'>;
async function remember(user: TestUser, content: string, extra: Omit<SaveBody, 'content'> = {}): Promise<string> {
  return bodyOf(await user.api.post('/v1/memory', { body: { content, ...extra } }), 201).id;
}
const pinned = { pinned: true };

type RecallRequest = RequestBody<'post', '/v1/recall'>;
const recall = async (user: TestUser, body: Omit<RecallRequest, 'session_id'> & { session_id?: string }) =>
  bodyOf(await user.api.post('/v1/recall', { body: { session_id: newSessionId(), ...body } }), 200);
const ids = (answer: { memories: { id: string }[] }) => answer.memories.map((memory) => memory.id);

async function useOf(id: string): Promise<{ use_count: number; last_used_at: Date | null; updated_at: Date }> {
  const [rows] = await server.database.pool.query('SELECT use_count, last_used_at, updated_at FROM memory WHERE id = ?', [id]);
  return (rows as { use_count: number; last_used_at: Date | null; updated_at: Date }[])[0]!;
}

async function principalOf(user: TestUser): Promise<Principal> {
  return (await server.services.authentication.authenticate(user.key, 'recall-ranking'))!;
}

describe('the ranking formula', () => {
  /** The formula as docs/hooks.md states it, written plainly: the oracle. */
  function reference(memory: RankableMemory, nowMs: number): number {
    const daysSince = (iso: string) => Math.max(0, nowMs - Date.parse(iso)) / DAY_MS;
    const recency = 0.5 ** (daysSince(memory.updatedAt) / RECALL_RANKING.halfLifeDays);
    const use =
      memory.useCount === 0 || memory.lastUsedAt === null
        ? 0
        : Math.min(1, Math.log2(1 + memory.useCount) / Math.log2(1 + RECALL_RANKING.useSaturation)) * 0.5 ** (daysSince(memory.lastUsedAt) / RECALL_RANKING.halfLifeDays);
    return memory.score * (1 + RECALL_RANKING.recencyWeight * recency + RECALL_RANKING.useWeight * use);
  }

  /** Deterministic pseudo-random numbers (mulberry32). */
  function random(seed: number): () => number {
    return () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  const nowMs = Date.parse('2026-12-01T00:00:00.000Z');
  function memories(next: () => number, n: number): RankableMemory[] {
    const iso = (daysAgo: number) => new Date(nowMs - daysAgo * DAY_MS).toISOString();
    return Array.from({ length: n }, () => {
      // Equal scores and equal times are frequent, so ties are exercised too.
      const useCount = next() < 0.4 ? 0 : Math.floor(next() ** 3 * 200);
      return {
        score: next() < 0.3 ? 0.5 : Math.round(next() * 10_000) / 10_000,
        updatedAt: iso(next() < 0.2 ? 0 : next() * 400 - 2),
        useCount,
        lastUsedAt: useCount === 0 ? null : iso(next() * 200),
      };
    });
  }

  it('agrees with the plain statement of the formula, value and order, ties kept in search order', () => {
    const next = random(42);
    for (let round = 0; round < 500; round++) {
      const list = memories(next, 1 + Math.floor(next() * 12));
      for (const memory of list) expect(memory.score * recallBoost(memory, nowMs)).toBeCloseTo(reference(memory, nowMs), 12);
      const expected = list
        .map((memory, index) => ({ memory, index, value: reference(memory, nowMs) }))
        .sort((x, y) => (Math.abs(y.value - x.value) > 1e-12 ? y.value - x.value : x.index - y.index))
        .map(({ memory }) => memory);
      expect(rankForRecall(list, new Date(nowMs))).toEqual(expected);
    }
  });

  it('lets relevance dominate: the boost stays within 1 and 1 + a + b, so a match that much better always wins', () => {
    const next = random(7);
    const most = 1 + RECALL_RANKING.recencyWeight + RECALL_RANKING.useWeight;
    for (const memory of memories(next, 2000)) {
      const boost = recallBoost(memory, nowMs);
      expect(boost).toBeGreaterThanOrEqual(1);
      expect(boost).toBeLessThanOrEqual(most);
    }
    const best = { score: 0.85, updatedAt: new Date(nowMs - 5000 * DAY_MS).toISOString(), useCount: 0, lastUsedAt: null };
    const freshAndUsed = { score: 0.85 / most - 0.0001, updatedAt: new Date(nowMs).toISOString(), useCount: 10_000, lastUsedAt: new Date(nowMs).toISOString() };
    expect(rankForRecall([freshAndUsed, best], new Date(nowMs))).toEqual([best, freshAndUsed]);
  });
});

describe('recall prefers fresh and used memories', () => {
  it('puts the fresher of two equal matches first: the one changed last, though saved first', async () => {
    const user = await newUser();
    const changedLast = await remember(user, 'Kiwi deploys need the blue lever pulled first.');
    const savedLast = await remember(user, 'Kiwi deploys need the green lever pulled first.');
    const before = await recall(user, { trigger: 'prompt', prompt: 'kiwi deploys lever' });
    expect(before.memories[0]!.score).toBe(before.memories[1]!.score);
    // Equal matches go to the newest save by relevance alone: the ranking must do the rest.
    expect(ids(before)).toEqual([savedLast, changedLast]);

    ahead += 60 * DAY_MS;
    expectStatus(await user.api.patch(`/v1/memory/${changedLast}`, { body: { tags: ['deploy'] } }), 200);
    const after = await recall(user, { trigger: 'prompt', prompt: 'kiwi deploys lever' });
    expect(ids(after)).toEqual([changedLast, savedLast]);
    expect(after.memories[0]!.score).toBe(after.memories[1]!.score);
  });

  it('puts the more used of two equal matches first', async () => {
    const user = await newUser();
    const used = await remember(user, 'Okapi builds cache the vendor folder walrus.');
    const unused = await remember(user, 'Okapi builds cache the vendor folder narwhal.');
    // Recalled into three sessions on its own.
    for (let i = 0; i < 3; i++) expect(ids(await recall(user, { trigger: 'prompt', prompt: 'walrus' }))).toEqual([used]);
    await server.services.memoryUse.flush();
    expect((await useOf(used)).use_count).toBe(3);

    const answer = await recall(user, { trigger: 'prompt', prompt: 'okapi builds vendor cache' });
    expect(ids(answer)).toEqual([used, unused]);
    expect(answer.memories[0]!.score).toBe(answer.memories[1]!.score);
  });

  it('still puts a far better match before a weaker one however fresh and used', async () => {
    const user = await newUser();
    const better = await remember(user, 'Tapir releases: the tapir release checklist lives in docs/release.md.');
    ahead += 365 * DAY_MS;
    const weaker = await remember(user, 'Someone mentioned a checklist once, in a meeting about lunch and parking spaces.');
    server.services.memoryUse.record(await principalOf(user), Array(100).fill(weaker));
    await server.services.memoryUse.flush();
    expect((await useOf(weaker)).use_count).toBe(100);

    const answer = await recall(user, { trigger: 'prompt', prompt: 'tapir release checklist' });
    expect(ids(answer)).toEqual([better, weaker]);
    const [first, second] = answer.memories;
    // Better by more than the largest boost: what the formula promises.
    expect(first!.score).toBeGreaterThan(second!.score * (1 + RECALL_RANKING.recencyWeight + RECALL_RANKING.useWeight));
  });
});

describe('pinned memories at session start', () => {
  it('come first, newest first, marked pinned, then the project’s matches; never repeated in the session', async () => {
    const tenant = await createTenant(server.services, server.url);
    const member = await tenant.addMember();
    const colleague = await tenant.addMember();
    const outsider = (await createTenant(server.services, server.url)).owner;
    const older = await remember(member, 'Always run pnpm, never npm, in this workspace.', pinned);
    ahead += 1000;
    const newer = await remember(member, 'Answer in British English.', pinned);
    ahead += 1000;
    const shared = await remember(tenant.owner, 'Team rule: no deploys on Fridays.', { scope: 'org', pinned: true });
    const colleagues = await remember(colleague, 'Colleague’s own pinned note: prefers tabs.', pinned);
    const otherOrgs = await remember(outsider, 'Other org pinned note.', pinned);
    const unpinned = await remember(member, 'An unpinned preference: dark theme.');
    const project = await remember(member, 'In the quagga-shop repository, run `make seed` before the tests.');

    const sessionId = newSessionId();
    const start = await recall(member, { session_id: sessionId, harness: 'claude-code', trigger: 'session_start', cwd: '/home/ana/quagga-shop' });
    expect(ids(start)).toEqual([shared, newer, older, project]);
    expect(start.memories.map((memory) => memory.pinned)).toEqual([true, true, true, false]);
    expect(start.memories[0]).toMatchObject({ scope: 'org', score: 0 });
    const lines = start.context.split('\n');
    expect(lines.findIndex((line) => line.includes(shared))).toBeLessThan(lines.findIndex((line) => line.includes(project)));
    for (const id of [colleagues, otherOrgs, unpinned]) expect(start.context).not.toContain(id);

    // Not again in this session: not at another session start, nor on a prompt that matches one.
    const again = await recall(member, { session_id: sessionId, harness: 'claude-code', trigger: 'session_start', cwd: '/home/ana/quagga-shop' });
    expect(again).toMatchObject({ context: '', memories: [], already_shown: 4 });
    const prompt = await recall(member, { session_id: sessionId, harness: 'claude-code', trigger: 'prompt', prompt: 'pnpm or npm?' });
    expect(ids(prompt)).not.toContain(older);
    // Another session starts with them again; a prompt does not put them first.
    expect(ids(await recall(member, { harness: 'claude-code', trigger: 'session_start' }))).toEqual([shared, newer, older]);
    expect((await recall(member, { trigger: 'prompt', prompt: 'British English spelling' })).memories).toMatchObject([{ id: newer, pinned: true }]);
  });

  it('take the budget first, as far as it goes, and at most RECALL_LIMITS.pinned of them', async () => {
    const user = await newUser();
    const pins: string[] = [];
    for (let i = 0; i < RECALL_LIMITS.pinned + 2; i++) {
      pins.push(await remember(user, `Pinned rule ${i}: ${'keep the public service backwards compatible for one release. '.repeat(3)}`, pinned));
      ahead += 1000;
    }
    await remember(user, 'In the capybara repository the tests need Redis.');
    const newestFirst = [...pins].reverse();

    const small = await recall(user, { trigger: 'session_start', repository: 'capybara', max_chars: 600 });
    expect(Array.from(small.context).length).toBeLessThanOrEqual(600);
    expect(ids(small)).toEqual(newestFirst.slice(0, small.memories.length));
    expect(small.memories.length).toBeGreaterThan(0);

    const created = await user.api.post('/v1/api-keys', { body: { name: 'hooks, large recall', scopes: ['memory:read', 'hooks:write'], recall_budget_chars: RECALL_LIMITS.maxBudgetChars } });
    const roomy = { ...user, api: client(server.url, bodyOf(created, 201).key) };
    const large = await recall(roomy, { trigger: 'session_start', repository: 'capybara', max_chars: RECALL_LIMITS.maxBudgetChars });
    expect(ids(large).slice(0, RECALL_LIMITS.pinned)).toEqual(newestFirst.slice(0, RECALL_LIMITS.pinned));
    expect(large.memories.filter((memory) => memory.pinned)).toHaveLength(RECALL_LIMITS.pinned);
    expect(large.memories.at(-1)).toMatchObject({ pinned: false });
  });
});

describe('superseded and expired memories', () => {
  it('are never recalled: not pinned, not matched, from the moment they expire', async () => {
    const user = await newUser();
    const old = await remember(user, 'The zebu cluster runs Postgres 14.', pinned);
    const current = await remember(user, 'The zebu cluster runs Postgres 16.', { pinned: true, supersedes: [old] });
    const expiring = await remember(user, 'The zebu cluster is frozen for the audit this week.', { pinned: true, expires_at: new Date(now().getTime() + 60 * 60 * 1000).toISOString() });

    const before = await recall(user, { trigger: 'session_start', repository: 'zebu cluster' });
    expect(ids(before).sort()).toEqual([current, expiring].sort());
    const matched = ids(await recall(user, { trigger: 'prompt', prompt: 'zebu cluster postgres' }));
    expect(matched).toContain(current);
    expect(matched).not.toContain(old);

    ahead += 2 * 60 * 60 * 1000;
    for (const answer of [
      await recall(user, { trigger: 'session_start', repository: 'zebu cluster' }),
      await recall(user, { trigger: 'prompt', prompt: 'zebu cluster frozen audit postgres' }),
    ]) {
      expect(ids(answer)).toEqual([current]);
      expect(answer.context).not.toContain(old);
      expect(answer.context).not.toContain(expiring);
    }
  });
});

describe('use tracking', () => {
  it('counts what a recall showed, and when, without changing the memory', async () => {
    const user = await newUser();
    const shown = await remember(user, 'The gecko worker drains the queue every minute.');
    const other = await remember(user, 'Unrelated: lunch is at noon.');
    const saved = await useOf(shown);
    expect(saved).toMatchObject({ use_count: 0, last_used_at: null });

    const at = now();
    expect(ids(await recall(user, { trigger: 'prompt', prompt: 'gecko worker queue' }))).toEqual([shown]);
    await server.services.memoryUse.flush();
    const once = await useOf(shown);
    expect(once.use_count).toBe(1);
    expect(once.last_used_at!.getTime()).toBeGreaterThanOrEqual(at.getTime());
    expect(once.last_used_at!.getTime()).toBeLessThanOrEqual(now().getTime());
    expect(once.updated_at).toEqual(saved.updated_at);

    // Two sessions before a write: one UPDATE counts both.
    ahead += DAY_MS;
    await recall(user, { trigger: 'prompt', prompt: 'gecko worker queue' });
    await recall(user, { trigger: 'prompt', prompt: 'gecko worker queue' });
    await server.services.memoryUse.flush();
    const thrice = await useOf(shown);
    expect(thrice.use_count).toBe(3);
    expect(thrice.last_used_at!.getTime()).toBeGreaterThanOrEqual(once.last_used_at!.getTime() + DAY_MS);
    expect(thrice.updated_at).toEqual(saved.updated_at);
    expect(await useOf(other)).toMatchObject({ use_count: 0, last_used_at: null });
  });

  it('counts within the caller’s org only, and writes nothing when nothing was recalled', async () => {
    const user = await newUser();
    const outsider = await newUser();
    const theirs = await remember(outsider, 'The other org’s memory.');
    const mine = await remember(user, 'My memory.');
    server.services.memoryUse.record(await principalOf(user), [theirs, mine, mine]);
    await server.services.memoryUse.flush();
    expect(await useOf(theirs)).toMatchObject({ use_count: 0, last_used_at: null });
    expect((await useOf(mine)).use_count).toBe(2);
    const empty = await recall(user, { trigger: 'prompt', prompt: 'nothing matches this' });
    expect(empty.memories).toEqual([]);
    await server.services.memoryUse.flush();
    expect((await useOf(mine)).use_count).toBe(2);
  });

  it('is best effort: a write that fails is logged, and flush() still resolves', async () => {
    const lines: { msg: string; memories?: number }[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const closed = openDatabase(inject('databaseUrl'), { poolSize: 1 });
    await closed.close();
    const use = createMemoryUseService({ db: closed.db, clock: { now }, logger });
    use.record(await principalOf(await newUser()), ['mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V']);
    await expect(use.flush()).resolves.toBeUndefined();
    expect(lines).toMatchObject([{ msg: 'memory use not recorded', memories: 1 }]);
  });
});
