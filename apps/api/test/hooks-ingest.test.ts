import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOK_LIMITS } from '../src/limits';
import { batchOf, claudeSession, fixture, newSessionId, type BatchEvent } from './support/hooks';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';
import { bodyOf, expectStatus, type Answer } from './support/http';

let server: TestServer;
let user: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  user = (await createTenant(server.services, server.url)).owner;
});
afterAll(() => server.close());

/** One result of a batch, as the document gives it. */
type BatchResult = Extract<Answer<'post', '/v1/hooks/batch'>, { status: 200 }>['body']['results'][number];

const post = (payload: Record<string, unknown>, harness = 'claude-code', headers: Record<string, string> = {}) =>
  user.api.post(`/v1/hooks/${harness}`, { body: payload, headers });

describe('POST /v1/hooks/{harness}', () => {
  it('records a whole Claude Code session: 202s, gapless sequences, one workstream', async () => {
    const session = newSessionId();
    const receipts = [];
    for (const payload of claudeSession(session)) {
      const res = await post(payload);
      expectStatus(res, 202);
      receipts.push(res.body);
    }
    expect(receipts.map((r) => r.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(new Set(receipts.map((r) => r.workstream_id)).size).toBe(1);
    expect(receipts.every((r) => r.duplicate === false && typeof r.event_id === 'string')).toBe(true);
    expect(receipts[2]?.event_id).toBe('PreToolUse:toolu_01A9XqkJ7bM3mZ2vP4rT8sLd');

    const ws = await user.api.get(`/v1/workstreams/${receipts[0]!.workstream_id}`);
    expect(ws.body).toMatchObject({
      harness: 'claude-code',
      native_session_id: session,
      cwd: '/home/ana/shop',
      event_count: 10,
      ended_at: expect.any(String),
    });
  });

  it('accepts the body whatever content type curl sends (a hook is curl --data-binary @-)', async () => {
    const payload = fixture('claude-code', 'user-prompt-submit', { session_id: newSessionId() });
    for (const contentType of ['application/x-www-form-urlencoded', 'text/plain', 'application/json; charset=utf-8']) {
      const res = await user.api.post('/v1/hooks/claude-code', {
        rawBody: JSON.stringify({ ...payload, prompt: `prompt sent as ${contentType}` }),
        headers: { 'content-type': contentType },
      });
      expect(res.status, contentType).toBe(202);
    }
  });

  it('keeps unknown event names as lifecycle events', async () => {
    const res = await post(fixture('claude-code', 'unknown-task-completed', { session_id: newSessionId() }));
    expectStatus(res, 202);
    const events = await user.api.get(`/v1/workstreams/${res.body.workstream_id}/events?include_lifecycle=true`);
    expectStatus(events, 200);
    expect(events.body.events[0]).toMatchObject({ kind: 'lifecycle', lifecycle_only: true });
  });

  it('takes every harness', async () => {
    for (const [harness, name] of [
      ['codex', 'notify-agent-turn-complete'],
      ['codex', 'hook-user-prompt-submit'],
      ['opencode', 'tool-execute-after'],
      ['generic', 'note'],
    ] as const) {
      const res = await post(fixture(harness, name), harness);
      expect(res.status, `${harness}/${name}`).toBe(202);
    }
  });

  it('refuses what it cannot take, naming the problem', async () => {
    const session = newSessionId();
    const missing = await post({ hook_event_name: 'UserPromptSubmit', prompt: 'x' });
    expectStatus(missing, 400);
    expect(missing.body.errors?.[0]?.path).toBe('session_id');
    for (const body of ['[1,2]', '"text"', '42', 'null']) {
      const res = await user.api.post('/v1/hooks/claude-code', { rawBody: body, headers: { 'content-type': 'application/json' } });
      expect(res.status, body).toBe(400);
    }
    expect((await user.api.post('/v1/hooks/claude-code', { rawBody: '{"session_id":', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await post({ session_id: session, hook_event_name: 'X' }, 'windsurf')).status).toBe(400);
    const huge = await post({ session_id: session, hook_event_name: 'UserPromptSubmit', prompt: 'x'.repeat(1024 * 1024 + 10) });
    expectStatus(huge, 413);
    const badKey = await post(fixture('claude-code', 'user-prompt-submit', { session_id: session }), 'claude-code', { 'idempotency-key': 'has spaces' });
    expectStatus(badKey, 400);
    expect(badKey.body.errors?.[0]?.path).toBe('idempotency-key');
    const badItemKey = await user.api.post('/v1/hooks/batch', {
      body: batchOf([{ harness: 'claude-code', payload: fixture('claude-code', 'stop', { session_id: session }), idempotency_key: 'has spaces' }]),
    });
    expectStatus(badItemKey, 200);
    expect(badItemKey.body.results[0]).toMatchObject({ status: 400, errors: [{ path: 'events.0.idempotency_key' }] });
  });
});

describe('hostile payloads', () => {
  it('takes lone UTF-16 surrogates (stored as U+FFFD), in single posts and batches', async () => {
    const session = `${newSessionId()}\ud800`;
    const single = await user.api.post('/v1/hooks/claude-code', {
      rawBody: JSON.stringify({ session_id: session, hook_event_name: 'UserPromptSubmit', prompt: 'lone \udc00' }),
      headers: { 'content-type': 'application/json' },
    });
    expectStatus(single, 202);
    const batch = await user.api.post('/v1/hooks/batch', {
      body: batchOf([{ harness: 'generic', payload: { session_id: '\ud800x', event: 'e', text: 't\udfff' } }, { harness: 'claude-code', payload: fixture('claude-code', 'stop', { session_id: session }) }]),
    });
    expectStatus(batch, 200);
    expect(batch.body.results.map((r) => r.status)).toEqual([202, 202]);
    expect(batch.body.results[1]?.workstream_id).toBe(single.body.workstream_id);
    const events = await user.api.get(`/v1/workstreams/${single.body.workstream_id}/events?include_lifecycle=true`);
    expectStatus(events, 200);
    expect(events.body.events[0]?.content).toContain('lone \ufffd');
  });

  it('refuses payloads nested more than 64 levels deep with 400, whatever the depth', async () => {
    const deep = (levels: number) => `{"session_id":"${newSessionId()}","hook_event_name":"X","a":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`;
    expect((await user.api.post('/v1/hooks/claude-code', { rawBody: deep(60), headers: { 'content-type': 'application/json' } })).status).toBe(202);
    for (const levels of [64, 3000, 100_000]) {
      const res = await user.api.post('/v1/hooks/claude-code', { rawBody: deep(levels), headers: { 'content-type': 'application/json' } });
      expectStatus(res, 400);
      expect(res.body.errors?.[0]?.path, String(levels)).toMatch(/^a\.a\.a/);
    }
    const batch = await user.api.post('/v1/hooks/batch', {
      rawBody: `{"events":[{"harness":"generic","payload":${deep(3000)}}]}`,
      headers: { 'content-type': 'application/json' },
    });
    expectStatus(batch, 400);
    expect(batch.body.errors?.[0]?.path).toMatch(/^events\.0\.payload\.a/);
  });
});

describe('idempotency', () => {
  it('answers a retried delivery with the original sequence, duplicate: true', async () => {
    const session = newSessionId();
    const prompt = fixture('claude-code', 'user-prompt-submit', { session_id: session });
    const first = await post(prompt);
    expectStatus(first, 202);
    const again = await post(prompt);
    expectStatus(again, 202);
    expect(again.body).toEqual({ ...first.body, duplicate: true });
    expect(first.body.event_id).toMatch(/^sha256:[0-9a-f]{64}$/);

    // Same tool_use_id and event name: the same event, even if the payload differs a little.
    const tool = fixture('claude-code', 'post-tool-use-bash', { session_id: session });
    const t1 = await post(tool);
    expectStatus(t1, 202);
    const t2 = await post({ ...tool, duration_ms: 9999 });
    expect(t2.body).toMatchObject({ sequence: t1.body.sequence, duplicate: true });

    // An Idempotency-Key wins: two identical prompts with different keys are two events.
    const k1 = await post(prompt, 'claude-code', { 'idempotency-key': 'delivery-a' });
    expectStatus(k1, 202);
    const k2 = await post(prompt, 'claude-code', { 'idempotency-key': 'delivery-b' });
    const k1again = await post(prompt, 'claude-code', { 'idempotency-key': 'delivery-a' });
    expect(k1.body).toMatchObject({ event_id: 'delivery-a', duplicate: false });
    expect(k2.body).toMatchObject({ event_id: 'delivery-b', duplicate: false, sequence: k1.body.sequence + 1 });
    expect(k1again.body).toMatchObject({ event_id: 'delivery-a', duplicate: true, sequence: k1.body.sequence });

    const events = await user.api.get(`/v1/workstreams/${first.body.workstream_id}/events?include_lifecycle=true&limit=100`);
    expectStatus(events, 200);
    expect(events.body.events.map((e) => e.sequence)).toEqual([1, 2, 3, 4]);
  });
});

describe('concurrency', () => {
  it('keeps sequences gapless and unique under many parallel posts, retries included', async () => {
    const session = newSessionId();
    const deliveries = Array.from({ length: 60 }, (_, i) =>
      fixture('claude-code', 'user-prompt-submit', { session_id: session, prompt: `parallel prompt ${i}` }),
    );
    // Every delivery sent twice, all at once: 120 requests, 60 events.
    const results = (await Promise.all([...deliveries, ...deliveries].map((payload) => post(payload)))).map((r) => bodyOf(r, 202));
    const fresh = results.filter((r) => !r.duplicate);
    expect(fresh).toHaveLength(60);
    expect(fresh.map((r) => r.sequence).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const bySequence = new Map(fresh.map((r) => [r.sequence, r.event_id]));
    for (const dup of results.filter((r) => r.duplicate)) expect(bySequence.get(dup.sequence)).toBe(dup.event_id);

    const [rows] = await server.database.pool.query(
      'SELECT COUNT(*) AS n, MIN(sequence) AS lo, MAX(sequence) AS hi, COUNT(DISTINCT event_id) AS ids FROM workstream_events WHERE workstream_id = ?',
      [fresh[0]!.workstream_id],
    );
    expect((rows as Record<string, unknown>[])[0]).toMatchObject({ n: 60, lo: 1, hi: 60, ids: 60 });
  });

  it('creates one workstream when a brand-new session starts with parallel events', async () => {
    const session = newSessionId();
    const results = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => bodyOf(await post(fixture('claude-code', 'user-prompt-submit', { session_id: session, prompt: `first ${i}` })), 202)),
    );
    expect(new Set(results.map((r) => r.workstream_id)).size).toBe(1);
    expect(results.map((r) => r.sequence).sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
  });
});

describe('POST /v1/hooks/batch', () => {
  it('ingests events of several sessions and harnesses, one result per event, in order', async () => {
    const a = newSessionId();
    const b = newSessionId();
    const events = [
      { harness: 'claude-code', payload: fixture('claude-code', 'user-prompt-submit', { session_id: a }) },
      { harness: 'opencode', payload: fixture('opencode', 'tool-execute-before', { sessionID: b }) },
      { harness: 'claude-code', payload: { hook_event_name: 'UserPromptSubmit' } },
      { harness: 'claude-code', payload: fixture('claude-code', 'post-tool-use-bash', { session_id: a }), idempotency_key: 'spooled-1' },
      { harness: 'claude-code', payload: fixture('claude-code', 'user-prompt-submit', { session_id: a }) },
      { harness: 'generic', payload: 'not an object' },
    ];
    // Unchecked: the last payload is not an object, on purpose.
    const res = await user.api.unchecked.post('/v1/hooks/batch', { body: { events } });
    expectStatus(res, 200);
    const results: BatchResult[] = res.body.results;
    expect(results.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(results.map((r) => r.status)).toEqual([202, 202, 400, 202, 202, 400]);
    expect(results[0]).toMatchObject({ sequence: 1, duplicate: false });
    expect(results[3]).toMatchObject({ sequence: 2, event_id: 'spooled-1', workstream_id: results[0]!.workstream_id });
    expect(results[4]).toMatchObject({ sequence: 1, duplicate: true });
    expect(results[1]!.workstream_id).not.toBe(results[0]!.workstream_id);
    expect(results[2]!.errors?.[0]?.path).toBe('events.2.payload.session_id');

    const replay = await user.api.unchecked.post('/v1/hooks/batch', { body: { events } });
    expect((replay.body.results as BatchResult[]).filter((r) => r.status === 202).every((r) => r.duplicate)).toBe(true);

    // A replay with a new event: the ones held answer their original sequences, the new one comes next.
    const fresh = { harness: 'claude-code', payload: fixture('claude-code', 'user-prompt-submit', { session_id: a, prompt: 'after the replay' }) };
    const mixed = await user.api.unchecked.post('/v1/hooks/batch', { body: { events: [events[0]!, fresh, events[3]!] } });
    expect((mixed.body.results as BatchResult[]).map((r) => [r.duplicate, r.sequence])).toEqual([
      [true, 1],
      [false, 3],
      [true, 2],
    ]);
    expect(mixed.body.results[1]!.workstream_id).toBe(results[0]!.workstream_id);
  });

  it('appends to a session deleted and begun again after its workstream id was remembered', async () => {
    const [a, b] = [newSessionId(), newSessionId()];
    const batch = async (prompt: string) => {
      const events = [a, b].map((session): BatchEvent => ({ harness: 'claude-code', payload: fixture('claude-code', 'user-prompt-submit', { session_id: session, prompt }) }));
      return bodyOf(await user.api.post('/v1/hooks/batch', { body: batchOf(events) }), 200).results;
    };
    const first = await batch('one');
    // Both sessions known now: the next append locks them by the ids it remembers.
    const second = await batch('two');
    expect(second.map((r) => [r.workstream_id, r.sequence])).toEqual(first.map((r) => [r.workstream_id, 2]));
    expect((await user.api.delete(`/v1/workstreams/${first[0]!.workstream_id}`)).status).toBe(204);
    const third = await batch('three');
    expect(third.map((r) => r.status)).toEqual([202, 202]);
    expect(third[0]!.workstream_id).not.toBe(first[0]!.workstream_id);
    expect(third.map((r) => r.sequence)).toEqual([1, 3]);
    expect(third[1]!.workstream_id).toBe(first[1]!.workstream_id);
  });

  it("records a batch item's occurred_at when its payload carries no time (a spooled event keeps when it happened)", async () => {
    const session = newSessionId();
    const happened = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
    const res = await user.api.post('/v1/hooks/batch', {
      body: batchOf([
        { harness: 'claude-code', payload: fixture('claude-code', 'user-prompt-submit', { session_id: session, prompt: 'spooled' }), occurred_at: happened },
        { harness: 'claude-code', payload: fixture('claude-code', 'user-prompt-submit', { session_id: session, prompt: 'seconds' }), occurred_at: Math.trunc(happened / 1000) },
        { harness: 'generic', payload: { session_id: session, event: 'note', text: 'own time', occurred_at: '2025-05-05T05:05:05Z' }, occurred_at: happened },
        { harness: 'claude-code', payload: fixture('claude-code', 'user-prompt-submit', { session_id: session, prompt: 'bad time' }), occurred_at: 'yesterday' },
      ]),
    });
    expectStatus(res, 200);
    const [spooled, , ownTime, badTime] = res.body.results;
    expect(res.body.results.map((r) => r.status)).toEqual([202, 202, 202, 400]);
    expect(badTime?.errors?.[0]?.path).toBe('events.3.occurred_at');
    const listed = bodyOf(await user.api.get(`/v1/workstreams/${spooled!.workstream_id}/events?include_lifecycle=true`), 200);
    expect(listed.events.map((event) => event.occurred_at)).toEqual([new Date(happened).toISOString(), '2026-01-02T03:04:05.000Z']);
    const generic = bodyOf(await user.api.get(`/v1/workstreams/${ownTime!.workstream_id}/events?include_lifecycle=true`), 200);
    expect(generic.events[0]?.occurred_at).toBe('2025-05-05T05:05:05.000Z'); // the payload's own time wins
  });

  it('appends concurrent batches over the same sessions, in any order, without deadlocks or gaps', async () => {
    const sessions = Array.from({ length: 5 }, () => newSessionId());
    // Eight batches of 40 events spread over the five sessions, half of them in reverse
    // session order; every batch sent twice, all at once.
    const batches = Array.from({ length: 8 }, (_, b) => {
      const events = Array.from({ length: 40 }, (_, i): BatchEvent => ({
        harness: 'claude-code',
        payload: fixture('claude-code', 'user-prompt-submit', { session_id: sessions[i % 5], prompt: `batch ${b} prompt ${i}` }),
        idempotency_key: `concurrent-${b}-${i}`,
      }));
      return b % 2 === 0 ? events : events.reverse();
    });
    const answers = await Promise.all([...batches, ...batches].map((events) => user.api.post('/v1/hooks/batch', { body: batchOf(events) })));
    const results = answers.flatMap((answer) => bodyOf(answer, 200).results);
    expect(results.every((result) => result.status === 202)).toBe(true);
    const fresh = results.filter((result) => !result.duplicate);
    expect(fresh).toHaveLength(320);
    expect(new Set(fresh.map((result) => result.workstream_id)).size).toBe(5);
    for (const workstream of new Set(fresh.map((result) => result.workstream_id))) {
      const sequences = fresh.filter((result) => result.workstream_id === workstream).map((result) => Number(result.sequence));
      expect(sequences.sort((x, y) => x - y)).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
    }
    const original = new Map(fresh.map((result) => [result.event_id, result.sequence]));
    for (const duplicate of results.filter((result) => result.duplicate)) expect(duplicate.sequence).toBe(original.get(duplicate.event_id));
  });

  it('creates brand-new sessions that many concurrent batches start at once', async () => {
    // 32 batches at once, each opening the same 48 new sessions: creating them inside the
    // appending transactions deadlocks (duplicate-key S locks, then X) past any retry budget.
    const sessions = Array.from({ length: 48 }, () => newSessionId());
    const answers = await Promise.all(
      Array.from({ length: 32 }, (_, b) =>
        user.api.post('/v1/hooks/batch', {
          body: batchOf(
            sessions.map((session, i) => ({
              harness: 'claude-code',
              payload: fixture('claude-code', 'user-prompt-submit', { session_id: session, prompt: `opening ${b}.${i}` }),
              idempotency_key: `opening-${b}-${i}`,
            })),
          ),
        }),
      ),
    );
    const results = answers.flatMap((answer) => bodyOf(answer, 200).results);
    expect(results.every((result) => result.status === 202)).toBe(true);
    expect(new Set(results.map((result) => result.workstream_id)).size).toBe(48);
    const [rows] = await server.database.pool.query(
      `SELECT COUNT(*) AS n, MAX(sequence) AS hi FROM workstream_events WHERE workstream_id IN (${results.slice(0, 48).map(() => '?').join(', ')})`,
      results.slice(0, 48).map((result) => result.workstream_id),
    );
    expect((rows as Record<string, unknown>[])[0]).toMatchObject({ n: 32 * 48, hi: 32 });
  });

  it('never deadlocks batches that lock many existing sessions at once', async () => {
    // Each batch lists the sessions in another order: taking their locks in request order
    // (or in any order that differs between transactions) would deadlock.
    const sessions = Array.from({ length: 64 }, () => newSessionId());
    const batch = (round: number, b: number) =>
      batchOf(
        Array.from({ length: 128 }, (_, i) => ({
          harness: 'claude-code',
          payload: fixture('claude-code', 'user-prompt-submit', { session_id: sessions[(i * (b + 1)) % 64], prompt: `lock ${round}.${b}.${i}` }),
          idempotency_key: `lock-${round}-${b}-${i}`,
        })),
      );
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(Array.from({ length: 16 }, (_, b) => user.api.post('/v1/hooks/batch', { body: batch(round, b) })));
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    }
  });

  it('keeps session ids that differ only in case apart', async () => {
    const session = newSessionId();
    const events = [session.toUpperCase(), session, session.toUpperCase()].map((id, i): BatchEvent => ({
      harness: 'claude-code',
      payload: fixture('claude-code', 'user-prompt-submit', { session_id: id }),
      idempotency_key: `case-${session}-${i}`,
    }));
    const [upper, lower, upperAgain] = bodyOf(await user.api.post('/v1/hooks/batch', { body: batchOf(events) }), 200).results;
    expect(lower!.workstream_id).not.toBe(upper!.workstream_id);
    expect(upperAgain).toMatchObject({ workstream_id: upper!.workstream_id, sequence: 2 });
    const single = await post(fixture('claude-code', 'user-prompt-submit', { session_id: session, prompt: 'single' }));
    expect(single.body).toMatchObject({ workstream_id: lower!.workstream_id, sequence: 2 });
  });

  it('lands a batch of large payloads, inserted in parts', async () => {
    const session = newSessionId();
    // 8 × ~840 KiB payloads (14 strings of 60 KiB, under the 64 KiB string cap): ~7 MiB of
    // ledger rows, more than one INSERT carries, so they go in parts, in order.
    const fields = (i: number) => Object.fromEntries(Array.from({ length: 14 }, (_, f) => [`field_${f}`, `${i}.${f} ${'lorem ipsum '.repeat(5_000)}`]));
    const events = Array.from({ length: 8 }, (_, i): BatchEvent => ({
      harness: 'generic',
      payload: { ...fixture('generic', 'note'), session_id: session, text: `part ${i}`, ...fields(i) },
    }));
    const res = await user.api.post('/v1/hooks/batch', { body: batchOf(events) });
    expectStatus(res, 200);
    expect(res.body.results.map((r) => [r.status, r.sequence])).toEqual(events.map((_, i) => [202, i + 1]));
    const [rows] = await server.database.pool.query(
      'SELECT sequence, payload_bytes AS bytes, content FROM workstream_events WHERE workstream_id = ? ORDER BY sequence',
      [res.body.results[0]!.workstream_id],
    );
    const ledger = rows as { sequence: number; bytes: number; content: string }[];
    expect(ledger.map((row) => row.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ledger.every((row, i) => row.bytes > 800_000 && row.content.includes(`part ${i}`))).toBe(true);
  });

  it('limits a batch to 256 events and 8 MiB', async () => {
    expect(HOOK_LIMITS).toMatchObject({ batchEvents: 256, batchBytes: 8 * 1024 * 1024 });
    const payload = fixture('generic', 'note');
    const tooMany = await user.api.post('/v1/hooks/batch', {
      body: batchOf(Array.from({ length: HOOK_LIMITS.batchEvents + 1 }, () => ({ harness: 'generic', payload }))),
    });
    expectStatus(tooMany, 400);
    expect(tooMany.body.errors?.[0]?.path).toBe('events');
    const big = 'y'.repeat(900 * 1024);
    const tooBig = await user.api.post('/v1/hooks/batch', {
      body: batchOf(Array.from({ length: 10 }, (_, i) => ({ harness: 'generic', payload: { ...payload, text: `${i}${big}` } }))),
    });
    expectStatus(tooBig, 413);
    const oversizedItem = await user.api.post('/v1/hooks/batch', {
      body: batchOf([{ harness: 'generic', payload: { ...payload, text: 'z'.repeat(1024 * 1024 + 1) } }, { harness: 'generic', payload }]),
    });
    expectStatus(oversizedItem, 200);
    expect(oversizedItem.body.results.map((r) => r.status)).toEqual([413, 202]);
  });
});
