import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { eventFromEnvelope, rebuildLedger } from '../src/archive/rebuild';
import { recallPayload } from '../src/hooks/adapters/recall';
import { RECALL_LIMITS } from '../src/limits';
import { composeRecall } from '../src/services/recall-context';
import { batchOf, fixture, newSessionId } from './support/hooks';
import { bodyOf, client, expectStatus, type RequestBody } from './support/http';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant, type TestUser } from './support/tenants';

let server: TestServer;
let tenant: TestTenant;
let owner: TestUser;
let member: TestUser;
let outsider: TestUser;

const codePoints = (text: string) => Array.from(text).length;

async function remember(user: TestUser, content: string, scope: 'user' | 'org' = 'user'): Promise<string> {
  const res = await user.api.post('/v1/memory', { body: { content, scope } });
  expectStatus(res, 201);
  return res.body.id;
}

type RecallRequest = RequestBody<'post', '/v1/recall'>;
const recall = (user: TestUser, body: RecallRequest) => user.api.post('/v1/recall', { body });

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.services, server.url);
  owner = tenant.owner;
  member = await tenant.addMember();
  outsider = (await createTenant(server.services, server.url, 'Other org')).owner;
});
afterAll(() => server.close());

describe('POST /v1/recall', () => {
  it('recalls the caller’s own and org-shared memories for a prompt, cited by id, and nothing of anyone else', async () => {
    const own = await remember(member, 'Checkout tests need the STRIPE_MOCK server running on port 12111 (zanzibar).');
    const shared = await remember(owner, 'The zanzibar checkout service deploys from the release branch only.', 'org');
    const ownersPrivate = await remember(owner, 'Owner private: zanzibar checkout pricing experiment.');
    const otherOrg = await remember(outsider, 'Other org: zanzibar checkout is down.');

    const res = await recall(member, { session_id: newSessionId(), harness: 'claude-code', trigger: 'prompt', prompt: 'Why does the zanzibar checkout fail?' });
    expectStatus(res, 200);
    const ids = res.body.memories.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining([own, shared]));
    expect(ids).not.toContain(ownersPrivate);
    expect(ids).not.toContain(otherOrg);
    expect(res.body.context).toContain(`[${own}] Checkout tests need`);
    expect(res.body.context).toContain(`[${shared}] (shared) The zanzibar checkout`);
    expect(res.body.context).not.toContain('Owner private');
    expect(res.body.context).not.toContain('Other org');
    expect(res.body.budget_chars).toBe(2000);
    expect(res.body.memories.find((m) => m.id === shared)).toMatchObject({ scope: 'org', truncated: false });
  });

  it('stays within the character budget: the default, a smaller max_chars, and the key’s own budget', async () => {
    const user = (await createTenant(server.services, server.url)).owner;
    for (let i = 0; i < 12; i++) await remember(user, `Quokka deployment note ${i}: ${'the quokka cluster needs a warm cache before traffic. '.repeat(6)}`);
    const ask = (who: TestUser, extra: Partial<RecallRequest> = {}) =>
      recall(who, { session_id: newSessionId(), trigger: 'prompt', prompt: 'quokka deployment cluster', ...extra });

    const full = await ask(user);
    expectStatus(full, 200);
    expect(codePoints(full.body.context)).toBeLessThanOrEqual(2000);
    expect(codePoints(full.body.context)).toBeGreaterThan(1500);
    expect(full.body.memories.length).toBeGreaterThan(3);
    for (const memory of full.body.memories) expect(full.body.context).toContain(`[${memory.id}]`);

    const small = await ask(user, { max_chars: 400 });
    expectStatus(small, 200);
    expect(small.body.budget_chars).toBe(400);
    expect(codePoints(small.body.context)).toBeLessThanOrEqual(400);
    expect(small.body.memories.length).toBeGreaterThan(0);

    const created = await user.api.post('/v1/api-keys', { body: { name: 'hooks, small recall', scopes: ['memory:read', 'hooks:write'], recall_budget_chars: 300 } });
    expectStatus(created, 201);
    expect(created.body.recall_budget_chars).toBe(300);
    const keyed = { ...user, api: client(server.url, created.body.key) };
    const capped = await ask(keyed, { max_chars: 5000 });
    expectStatus(capped, 200);
    expect(capped.body.budget_chars).toBe(300);
    expect(codePoints(capped.body.context)).toBeLessThanOrEqual(300);
    expect((await user.api.post('/v1/api-keys', { body: { name: 'too small', recall_budget_chars: 10 } })).status).toBe(400);
  });

  it('does not repeat memories already recalled into the session, and records each recall in the session’s ledger', async () => {
    const user = (await createTenant(server.services, server.url)).owner;
    const first = await remember(user, 'The wombat importer retries three times before giving up.');
    const sessionId = newSessionId();
    const ask = (session: string) => recall(user, { session_id: session, harness: 'claude-code', trigger: 'prompt', prompt: 'wombat importer retries', cwd: '/home/ana/wombat' });

    const one = await ask(sessionId);
    expectStatus(one, 200);
    expect(one.body.memories.map((m) => m.id)).toEqual([first]);
    expect(one.body.recorded).toMatchObject({ workstream_id: expect.stringMatching(/^ws_/), sequence: 1 });

    const second = await remember(user, 'The wombat importer logs retries under importer.retry.');
    const two = await ask(sessionId);
    expectStatus(two, 200);
    expect(two.body.memories.map((m) => m.id)).toEqual([second]);
    expect(two.body.already_shown).toBe(1);
    expect(two.body.context).not.toContain(first);

    const three = await ask(sessionId);
    expect(three.body).toMatchObject({ context: '', memories: [], already_shown: 2, recorded: null });

    // Another session is shown them again.
    expect(bodyOf(await ask(newSessionId()), 200).memories).toHaveLength(2);

    const workstreamId = one.body.recorded!.workstream_id;
    const events = await user.api.get(`/v1/workstreams/${workstreamId}/events?kind=recall`);
    expectStatus(events, 200);
    expect(events.body.events.map((e) => [e.kind, e.event, e.role])).toEqual([
      ['recall', 'Recall', 'system'],
      ['recall', 'Recall', 'system'],
    ]);
    expect(events.body.events[0]?.content).toBe(`Recalled on prompt: ${first}\n\n${one.body.context}`);
    expect(events.body.events[1]?.content).toBe(`Recalled on prompt: ${second}\n\n${two.body.context}`);
    const workstream = await user.api.get(`/v1/workstreams/${workstreamId}`);
    expect(workstream.body).toMatchObject({ harness: 'claude-code', native_session_id: sessionId, cwd: '/home/ana/wombat' });
  });

  it('recalls again what a compaction took out of the session’s context', async () => {
    const user = (await createTenant(server.services, server.url)).owner;
    const id = await remember(user, 'The okapi billing job runs at 02:00 UTC.');
    const sessionId = newSessionId();
    const ask = () => recall(user, { session_id: sessionId, harness: 'claude-code', trigger: 'prompt', prompt: 'okapi billing job' });
    expect(bodyOf(await ask(), 200).memories.map((m) => m.id)).toEqual([id]);
    expect(bodyOf(await ask(), 200).memories).toEqual([]);
    expect((await user.api.post('/v1/hooks/claude-code', { body: fixture('claude-code', 'pre-compact', { session_id: sessionId }) })).status).toBe(202);
    expect(bodyOf(await ask(), 200).memories.map((m) => m.id)).toEqual([id]);
    expect(bodyOf(await ask(), 200).memories).toEqual([]);
  });

  it('at session start, recalls memories about the project and where the last session in that directory left off, once', async () => {
    const user = (await createTenant(server.services, server.url)).owner;
    const about = await remember(user, 'In the pangolin-shop repository, run `make seed` before the checkout tests.');
    await remember(user, 'Unrelated: the garden needs watering on Fridays.');
    const previous = newSessionId();
    const cwd = '/home/ana/pangolin-shop';
    for (const name of ['session-start', 'user-prompt-submit', 'stop']) {
      expect((await user.api.post('/v1/hooks/claude-code', { body: fixture('claude-code', name, { session_id: previous, cwd }) })).status).toBe(202);
    }
    // A session elsewhere, more recent, is not "last time in this project".
    await user.api.post('/v1/hooks/claude-code', { body: fixture('claude-code', 'user-prompt-submit', { session_id: newSessionId(), cwd: '/home/ana/elsewhere', prompt: 'Elsewhere prompt' }) });

    const current = newSessionId();
    const start = await recall(user, { session_id: current, harness: 'claude-code', trigger: 'session_start', cwd });
    expectStatus(start, 200);
    expect(start.body.memories.map((m) => m.id)).toEqual([about]);
    expect(start.body.last_session).toMatchObject({
      workstream_id: expect.stringMatching(/^ws_/),
      prompt: "The checkout test fails with 'Cannot find module express'. Can you fix it?",
      reply: 'Fixed: express was missing from package.json. I added it and the checkout tests pass now.',
    });
    expect(start.body.context).toContain('Last time in this project');
    expect(start.body.context).toContain("- You asked: The checkout test fails with 'Cannot find module express'. Can you fix it?");
    expect(start.body.context).toContain('- The reply: Fixed: express was missing');
    expect(start.body.context).not.toContain('Elsewhere prompt');

    const again = await recall(user, { session_id: current, harness: 'claude-code', trigger: 'session_start', cwd });
    expect(again.body).toMatchObject({ context: '', last_session: null, already_shown: 1 });
  });

  it('records and returns memories with secrets redacted, even in an org that stores memories as sent', async () => {
    const user = (await createTenant(server.services, server.url)).owner;
    expect((await user.api.patch('/v1/org', { body: { redact_memory_secrets: false } })).status).toBe(200);
    const id = await remember(user, 'Numbat deploys use GITHUB_TOKEN=ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa for the registry.');
    expect(bodyOf(await user.api.get(`/v1/memory/${id}`), 200).content).toContain('ghp_aaaa'); // stored as sent
    const res = await recall(user, { session_id: newSessionId(), trigger: 'prompt', prompt: 'numbat deploys registry' });
    expectStatus(res, 200);
    expect(res.body.context).toContain('[REDACTED:');
    expect(res.body.context).not.toContain('ghp_aaaa');
    const events = await user.api.get(`/v1/workstreams/${res.body.recorded!.workstream_id}/events?kind=recall`);
    expectStatus(events, 200);
    expect(events.body.events[0]?.content).not.toContain('ghp_aaaa');
  });

  it('refuses malformed requests with 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ trigger: 'prompt', prompt: 'x' }, 'session_id'],
      [{ session_id: 's', trigger: 'prompt' }, 'prompt'],
      [{ session_id: 's', trigger: 'later' }, 'trigger'],
      [{ session_id: 's', trigger: 'prompt', prompt: 'x', harness: 'windsurf' }, 'harness'],
      [{ session_id: 's', trigger: 'prompt', prompt: 'x', max_chars: 50 }, 'max_chars'],
      [{ session_id: 's', trigger: 'prompt', prompt: 'x', max_chars: 100000 }, 'max_chars'],
      [{ session_id: 'x'.repeat(256), trigger: 'session_start' }, 'session_id'],
    ];
    for (const [body, field] of cases) {
      const res = await owner.api.unchecked.post('/v1/recall', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(field);
    }
  });

  it('needs both memory:read and hooks:write', async () => {
    const hooksOnly = await tenant.keyWithScopes(owner, ['hooks:write']);
    expect((await recall(hooksOnly, { session_id: 's', trigger: 'prompt', prompt: 'x' })).status).toBe(403);
    const readOnly = await tenant.keyWithScopes(owner, ['memory:read']);
    expect((await recall(readOnly, { session_id: 's', trigger: 'prompt', prompt: 'x' })).status).toBe(403);
  });
});

describe('postRecall as an MCP tool', () => {
  it('is a tool when MCP_TOOL_TAGS includes Recall, and recalls as the caller', async () => {
    const withRecall = await startTestServer({ env: { MCP_TOOL_TAGS: 'Memory,Recall' } });
    try {
      const user = (await createTenant(withRecall.services, withRecall.url)).owner;
      const id = bodyOf(await user.api.post('/v1/memory', { body: { content: 'The ibis exporter writes Parquet files.' } }), 201).id;
      const rpc = async (body: unknown) =>
        (
          await fetch(`${withRecall.url}/mcp`, {
            method: 'POST',
            headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: JSON.stringify(body),
          })
        ).json() as Promise<{ result: { tools?: { name: string }[]; isError?: boolean; structuredContent?: { context: string; memories: { id: string }[] } } }>;
      const tools = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(tools.result.tools!.map((tool) => tool.name)).toContain('postRecall');
      expect(tools.result.tools!.map((tool) => tool.name)).not.toContain('postHookRecall');
      const call = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'postRecall', arguments: { session_id: 'mcp-1', trigger: 'prompt', prompt: 'ibis exporter format' } } });
      expect(call.result.isError).toBeFalsy();
      expect(call.result.structuredContent!.memories.map((m) => m.id)).toEqual([id]);
      expect(call.result.structuredContent!.context).toContain(`[${id}]`);
    } finally {
      await withRecall.close();
    }
  });
});

describe('POST /v1/hooks/{harness}/recall', () => {
  it('answers SessionStart and UserPromptSubmit with Claude Code hook output, other events with {}', async () => {
    const user = (await createTenant(server.services, server.url)).owner;
    const id = await remember(user, 'The express dependency of the shop checkout must stay on v4.');
    const sessionId = newSessionId();
    const prompt = await user.api.post('/v1/hooks/claude-code/recall', { body: fixture('claude-code', 'user-prompt-submit', { session_id: sessionId }) });
    expectStatus(prompt, 200);
    // Claude Code's harnesses answer JSON (only Kimi's answer is text).
    const claudeOutput = (body: unknown) => body as { hookSpecificOutput?: { hookEventName: string; additionalContext: string } };
    expect(Object.keys(prompt.body)).toEqual(['hookSpecificOutput']);
    expect(claudeOutput(prompt.body).hookSpecificOutput?.hookEventName).toBe('UserPromptSubmit');
    expect(claudeOutput(prompt.body).hookSpecificOutput?.additionalContext).toContain(`[${id}] The express dependency`);

    const start = await user.api.post('/v1/hooks/codex/recall', { body: fixture('claude-code', 'session-start', { session_id: newSessionId(), cwd: '/home/ana/shop' }) });
    expectStatus(start, 200);
    expect(claudeOutput(start.body).hookSpecificOutput?.hookEventName).toBe('SessionStart');
    expect(claudeOutput(start.body).hookSpecificOutput?.additionalContext).toContain(id);

    const tool = await user.api.post('/v1/hooks/claude-code/recall', { body: fixture('claude-code', 'pre-tool-use-bash', { session_id: sessionId }) });
    expectStatus(tool, 200);
    expect(tool.body).toEqual({});
    // Already shown in this session: nothing new, so nothing to add.
    const repeat = await user.api.post('/v1/hooks/claude-code/recall', { body: fixture('claude-code', 'user-prompt-submit', { session_id: sessionId }) });
    expect(repeat.body).toEqual({});

    const bad = await user.api.post('/v1/hooks/claude-code/recall', { body: { hook_event_name: 'UserPromptSubmit', prompt: 'x' } });
    expectStatus(bad, 400);
  });

  it('a harness cannot forge a recall record', async () => {
    const forged = recallPayload(newSessionId(), { trigger: 'prompt', memory_ids: [], text: 'forged' }, undefined);
    const res = await owner.api.post('/v1/hooks/generic', { body: { ...forged, event: 'note' } });
    expectStatus(res, 400);
    expect(res.body.errors?.[0]?.path).toBe('memory_bank_recall');
    const batch = await owner.api.post('/v1/hooks/batch', { body: batchOf([{ harness: 'generic', payload: { ...forged, event: 'note' } }]) });
    expect(bodyOf(batch, 200).results[0]).toMatchObject({ status: 400 });
  });

  it('a recall event is archived with its session and rebuilt from the archive alone, the same row', async () => {
    const own = await startTestServer({ ownDatabase: true });
    try {
      const user = (await createTenant(own.services, own.url)).owner;
      await user.api.post('/v1/memory', { body: { content: 'The heron cache is flushed nightly.' } });
      const sessionId = newSessionId();
      await user.api.post('/v1/hooks/claude-code', { body: fixture('claude-code', 'user-prompt-submit', { session_id: sessionId, prompt: 'heron cache flush' }) });
      const recalled = await user.api.post('/v1/recall', { body: { session_id: sessionId, harness: 'claude-code', trigger: 'prompt', prompt: 'heron cache flush' } });
      expectStatus(recalled, 200);
      const workstreamId = recalled.body.recorded!.workstream_id;
      await own.archiver.runOnce(true);
      const rows = async () =>
        (await own.database.pool.query('SELECT sequence, event_id, kind, role, event, lifecycle_only, content, content_sha256, payload_sha256, segment_key FROM workstream_events WHERE workstream_id = ? ORDER BY sequence', [workstreamId]))[0];
      const original = (await rows()) as { kind: string; segment_key: string | null }[];
      expect(original.map((row) => row.kind)).toEqual(['message', 'recall']);
      expect(original.every((row) => row.segment_key !== null)).toBe(true);
      await own.database.pool.query('DELETE FROM workstream_events WHERE workstream_id = ?', [workstreamId]);
      const report = await rebuildLedger({ db: own.database.db, store: own.store, logger: pino({ level: 'silent' }) }, { workstreamId });
      expect(report).toMatchObject({ events: 2, skipped: [] });
      expect(await rows()).toEqual(original);
    } finally {
      await own.close();
    }
  });

  it('a recall record is rebuilt from its archived payload as the same recall event', () => {
    const payload = recallPayload('s-1', { trigger: 'session_start', memory_ids: ['mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V'], text: 'Memory Bank recalled…' }, '/x');
    const envelope = { v: 1, event_id: 'recall:1', workstream_id: 'ws_1', sequence: 3, harness: 'claude-code', event: 'Recall', occurred_at: '2026-11-30T00:00:00Z', received_at: '2026-11-30T00:00:00Z', sha256: 'x', payload };
    const event = eventFromEnvelope(envelope as never, 'claude-code');
    expect(event).toMatchObject({ kind: 'recall', role: 'system', event: 'Recall', content: 'Recalled on session_start: mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V\n\nMemory Bank recalled…' });
  });
});

describe('composeRecall', () => {
  const memory = (i: number, content: string) => ({ id: `mem_01JD3W6Q8Z9K2M4N5P6R7S8T${String(i).padStart(2, '0')}`, scope: 'user' as const, content, score: 1 });
  const note = { workstreamId: 'ws_1', lastEventAt: new Date('2026-11-29T16:02:00Z'), prompt: 'Fix the 🐛 in checkout\nplease', reply: 'Done: '.repeat(200) };

  it('never exceeds the budget in code points, whatever the text (astral characters, long memories, the note)', () => {
    for (const budget of [RECALL_LIMITS.minBudgetChars, 500, 2000, 5000]) {
      const candidates = Array.from({ length: 10 }, (_, i) => memory(i, `${'🦘 kangaroo '.repeat(30 + i * 20)}`));
      const composed = composeRecall(candidates, note, budget);
      expect(Array.from(composed.text).length, `budget ${budget}`).toBeLessThanOrEqual(budget);
      expect(composed.memories.length, `budget ${budget}`).toBeGreaterThan(0);
      for (const shown of composed.memories) expect(composed.text).toContain(`[${shown.id}]`);
    }
  });

  it('cuts a memory that does not fit whole, marks it, and gives one memory at most 40 % of the budget', () => {
    const composed = composeRecall([memory(1, 'x'.repeat(5000)), memory(2, 'short one')], null, 1000);
    expect(composed.memories).toEqual([
      { id: memory(1, '').id, scope: 'user', score: 1, truncated: true },
      { id: memory(2, '').id, scope: 'user', score: 1, truncated: false },
    ]);
    const line = composed.text.split('\n').find((l) => l.includes(memory(1, '').id))!;
    expect(line.endsWith('…')).toBe(true);
    expect(Array.from(line).length).toBeLessThanOrEqual(400 + 40);
  });

  it('puts the note on one line each for prompt and reply, within 30 % of the budget; nothing at all gives ""', () => {
    const composed = composeRecall([], note, 2000);
    expect(composed.text.startsWith('Last time in this project (2026-11-29 16:02 UTC, workstream ws_1):\n- You asked: Fix the 🐛 in checkout please\n- The reply: Done:')).toBe(true);
    expect(Array.from(composed.text).length).toBeLessThanOrEqual(600);
    expect(composeRecall([], null, 2000)).toEqual({ text: '', memories: [], note: null });
  });
});
