import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeSession, fixture, newSessionId } from './support/hooks';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';
import { bodyOf, expectStatus } from './support/http';

let server: TestServer;
let user: TestUser;
let workstreamId: string;
let sessionId: string;

beforeAll(async () => {
  server = await startTestServer();
  user = (await createTenant(server.services, server.url)).owner;
  sessionId = newSessionId();
  const payloads = [
    ...claudeSession(sessionId).slice(0, 8),
    // A call that never got its result.
    fixture('claude-code', 'pre-tool-use-bash', { session_id: sessionId, tool_use_id: 'toolu_01NoResultYetXXXXXXXXXX', tool_input: { command: 'npm run migrate' } }),
    ...claudeSession(sessionId).slice(8),
  ];
  for (const payload of payloads) workstreamId = bodyOf(await user.api.post('/v1/hooks/claude-code', { body: payload }), 202).workstream_id;
});
afterAll(() => server.close());

describe('GET /v1/workstreams', () => {
  it('lists sessions newest activity first, with a cursor and a harness filter', async () => {
    const solo = (await createTenant(server.services, server.url)).owner;
    const ids: string[] = [];
    for (const harness of ['claude-code', 'generic', 'claude-code'] as const) {
      const payload = harness === 'generic' ? fixture('generic', 'note', { session_id: newSessionId() }) : fixture('claude-code', 'user-prompt-submit', { session_id: newSessionId() });
      ids.push(bodyOf(await solo.api.post(`/v1/hooks/${harness}`, { body: payload }), 202).workstream_id);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // New activity on the first one moves it to the top.
    const first = bodyOf(await solo.api.get(`/v1/workstreams/${ids[0]}`), 200);
    await solo.api.post('/v1/hooks/claude-code', { body: fixture('claude-code', 'stop', { session_id: first.native_session_id }) });
    const page1 = await solo.api.get('/v1/workstreams?limit=2');
    expectStatus(page1, 200);
    expect(page1.body.workstreams.map((w) => w.id)).toEqual([ids[0], ids[2]]);
    const page2 = await solo.api.get(`/v1/workstreams?limit=2&cursor=${page1.body.next_cursor}`);
    expect(page2.body).toMatchObject({ workstreams: [{ id: ids[1], harness: 'generic' }], next_cursor: null });
    const claude = await solo.api.get('/v1/workstreams?harness=claude-code');
    expectStatus(claude, 200);
    expect(claude.body.workstreams.map((w) => w.id)).toEqual([ids[0], ids[2]]);
    expect((await solo.api.get('/v1/workstreams?harness=windsurf')).status).toBe(400);
    expect((await solo.api.get('/v1/workstreams?cursor=nope')).status).toBe(400);
  });
});

describe('GET /v1/workstreams/{id}/events', () => {
  it('shows what a person would read by default, everything with include_lifecycle', async () => {
    const timeline = await user.api.get(`/v1/workstreams/${workstreamId}/events`);
    expectStatus(timeline, 200);
    expect(timeline.body.events.map((e) => `${e.event}:${e.kind}`)).toEqual([
      'UserPromptSubmit:message',
      'PostToolUse:tool_result',
      'PostToolUseFailure:tool_result',
      'Notification:annotation',
      'PostCompact:compaction',
      'Stop:message',
    ]);
    const everything = await user.api.get(`/v1/workstreams/${workstreamId}/events?include_lifecycle=true`);
    expectStatus(everything, 200);
    expect(everything.body.events.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(everything.body.events[0]).toMatchObject({ event: 'SessionStart', kind: 'lifecycle', lifecycle_only: true });
    const prompt = timeline.body.events[0];
    expect(prompt).toMatchObject({
      workstream_id: workstreamId,
      event_id: expect.stringMatching(/^sha256:/),
      role: 'user',
      content: expect.stringContaining('Cannot find module express'),
      redactions: {},
      truncations: 0,
      content_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      archived: false,
    });
  });

  it('filters by kind and event, orders both ways, and pages with after', async () => {
    const results = await user.api.get(`/v1/workstreams/${workstreamId}/events?kind=tool_result`);
    expectStatus(results, 200);
    expect(results.body.events.map((e) => e.outcome)).toEqual(['success', 'error']);
    expect(bodyOf(await user.api.get(`/v1/workstreams/${workstreamId}/events?event=PostToolUseFailure`), 200).events).toHaveLength(1);
    const several = await user.api.get(`/v1/workstreams/${workstreamId}/events?kind=message,annotation`);
    expectStatus(several, 200);
    expect(several.body.events.map((e) => e.kind)).toEqual(['message', 'annotation', 'message']);
    const desc = await user.api.get(`/v1/workstreams/${workstreamId}/events?order=desc&include_lifecycle=true&limit=4`);
    expectStatus(desc, 200);
    expect(desc.body.events.map((e) => e.sequence)).toEqual([11, 10, 9, 8]);
    expect(desc.body.next_after).toBe(8);
    const next = await user.api.get(`/v1/workstreams/${workstreamId}/events?order=desc&include_lifecycle=true&limit=4&after=8`);
    expectStatus(next, 200);
    expect(next.body.events.map((e) => e.sequence)).toEqual([7, 6, 5, 4]);
    const asc = await user.api.get(`/v1/workstreams/${workstreamId}/events?include_lifecycle=true&after=9`);
    expect(asc.body).toMatchObject({ events: [{ sequence: 10 }, { sequence: 11 }], next_after: null });
    for (const query of ['kind=bogus', 'order=sideways', 'limit=0', 'limit=501', 'after=-1', 'include_lifecycle=maybe']) {
      expect((await user.api.get(`/v1/workstreams/${workstreamId}/events?${query}`)).status, query).toBe(400);
    }
  });
});

describe('GET /v1/workstreams/{id}/actions', () => {
  it('pairs each tool call with its result by tool_use_id, with an outcome', async () => {
    const res = await user.api.get(`/v1/workstreams/${workstreamId}/actions`);
    expectStatus(res, 200);
    expect(res.body.actions).toEqual([
      {
        tool_use_id: 'toolu_01A9XqkJ7bM3mZ2vP4rT8sLd',
        tool_name: 'Bash',
        outcome: 'success',
        call: expect.objectContaining({ sequence: 3, content: expect.stringContaining('npm test') }),
        result: expect.objectContaining({ sequence: 4 }),
      },
      {
        tool_use_id: 'toolu_01Fq2WcN5yZ8kR1tB6vH3jMp',
        tool_name: 'Bash',
        outcome: 'error',
        call: null,
        result: expect.objectContaining({ sequence: 5, content: expect.stringContaining("Cannot find module 'express'") }),
      },
      {
        tool_use_id: 'toolu_01NoResultYetXXXXXXXXXX',
        tool_name: 'Bash',
        outcome: 'no_result',
        call: expect.objectContaining({ sequence: 9, content: expect.stringContaining('npm run migrate') }),
        result: null,
      },
    ]);
    expect(bodyOf(await user.api.get(`/v1/workstreams/${workstreamId}/actions?limit=2`), 200).next_after).toBe(5);
    const rest = await user.api.get(`/v1/workstreams/${workstreamId}/actions?limit=2&after=5`);
    expect(rest.body).toMatchObject({ actions: [{ tool_use_id: 'toolu_01NoResultYetXXXXXXXXXX' }], next_after: null });
  });
});

describe('GET /v1/workstreams/search', () => {
  it('answers "what did the agent run when the migration broke?"', async () => {
    const res = await user.api.get('/v1/workstreams/search?q=express%20module%20error');
    expectStatus(res, 200);
    expect(res.body.results[0]).toMatchObject({ workstream_id: workstreamId, event: 'PostToolUseFailure', outcome: 'error', score: expect.any(Number), content_truncated: false });
    expect(bodyOf(await user.api.get('/v1/workstreams/search?q=migrate'), 200).results.map((r) => r.sequence)).toEqual([9]);
  });

  it('follows the memory search rules: short tokens, operators, filters, other tenants', async () => {
    const own = await user.api.get(`/v1/workstreams/search?q=npm&workstream_id=${workstreamId}&kind=tool_call`);
    expectStatus(own, 200);
    expect(own.body.results.every((r) => r.kind === 'tool_call' && r.workstream_id === workstreamId)).toBe(true);
    expect(own.body.results.length).toBeGreaterThan(0);
    for (const q of ['+npm -test "checkout*', '"', '***', "' OR 1=1 --"]) expect((await user.api.get(`/v1/workstreams/search?q=${encodeURIComponent(q)}`)).status).toBe(200);
    expect(bodyOf(await user.api.get('/v1/workstreams/search?q=zzzyzzy'), 200).results).toEqual([]);
    expect(bodyOf(await user.api.get('/v1/workstreams/search?q=npm&workstream_id=ws_nope'), 200).results).toEqual([]);
    const stranger = (await createTenant(server.services, server.url)).owner;
    expect(bodyOf(await stranger.api.get('/v1/workstreams/search?q=express%20npm%20checkout'), 200).results).toEqual([]);
    expect(bodyOf(await stranger.api.get(`/v1/workstreams/search?q=npm&workstream_id=${workstreamId}`), 200).results).toEqual([]);
  });
});

describe('POST /v1/workstreams/{id}/events/{sequence}/remember', () => {
  it('turns an event into a memory citing it', async () => {
    const res = await user.api.post(`/v1/workstreams/${workstreamId}/events/5/remember`, { body: { tags: ['incident'] } });
    expectStatus(res, 201);
    const event = bodyOf(await user.api.get(`/v1/workstreams/${workstreamId}/events?event=PostToolUseFailure`), 200).events[0]!;
    expect(res.body).toMatchObject({
      content: event.content,
      tags: ['incident'],
      source: 'api',
      contexts: [
        {
          snippet: event.content,
          origin: 'searched_conversation',
          citation: { workstream_id: workstreamId, sequence: 5, event_id: event.event_id },
          conversation_id: workstreamId,
          message_id: event.event_id,
        },
      ],
    });
    const custom = await user.api.post(`/v1/workstreams/${workstreamId}/events/2/remember`, { body: { content: 'The checkout test needs express.' } });
    expectStatus(custom, 201);
    expect(custom.body.content).toBe('The checkout test needs express.');
    expect(bodyOf(await user.api.get('/v1/memory/search?q=express'), 200).results.map((r) => r.id)).toContain(custom.body.id);
    expect((await user.api.post(`/v1/workstreams/${workstreamId}/events/999/remember`, { body: {} })).status).toBe(404);
    expect((await user.api.post(`/v1/workstreams/${workstreamId}/events/0/remember`, {})).status).toBe(400);
    expect((await user.api.post(`/v1/workstreams/${workstreamId}/events/2/remember`, { body: { content: '' } })).status).toBe(400);
  });
});
