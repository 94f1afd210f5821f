import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMITS, IDEMPOTENCY_LIMITS, TRANSFER_LIMITS } from '../src/limits';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant, type TestUser } from './support/tenants';
import { bodyOf, expectStatus, type Answer } from './support/http';

let server: TestServer;
let source: TestTenant;
let member: TestUser;

// Built at run time so no scanner mistakes this file for a leak.
const anthropicKey = `sk-ant-api03-${'Qx7'.repeat(31)}0001AA`;

beforeAll(async () => {
  server = await startTestServer();
  source = await createTenant(server.services, server.url, 'Exporting org');
  member = await source.addMember('member');
  // What the source org holds, newest last: every export and import below starts from it.
  expectStatus(await source.owner.api.post('/v1/memory', { body: { content: 'Owner private: the staging DB is pg-14', tags: ['infra', 'db'], contexts: [{ snippet: 'we run pg 14 on staging', citation: { url: 'https://wiki.example/db' } }] } }), 201);
  expectStatus(await source.owner.api.post('/v1/memory', { body: { content: 'Org shared: releases ship on Thursdays', scope: 'org', tags: ['process'] } }), 201);
  expectStatus(await member.api.post('/v1/memory', { body: { content: 'Member private: I prefer tabs' } }), 201);
});
afterAll(() => server?.close());

const ndjson = (lines: unknown[]) => lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n';

async function exportOf(user: TestUser, scope = 'all') {
  const res = await fetch(`${server.url}/v1/memory/export?scope=${scope}`, { headers: { authorization: `Bearer ${user.key}` } });
  const text = await res.text();
  return { res, text, lines: text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { id: string; content: string; scope: string; tags: string[]; contexts: { snippet: string; citation: unknown }[] }) };
}

async function importInto(user: TestUser, body: string | Uint8Array | ReadableStream<Uint8Array>, query = '', contentType = 'application/x-ndjson') {
  const res = await fetch(`${server.url}/v1/memory/import${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.key}`, 'content-type': contentType },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) };
}

async function contentsOf(user: TestUser): Promise<string[]> {
  const all: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Answer<'get', '/v1/memory'> = await user.api.get(`/v1/memory?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    expectStatus(page, 200);
    all.push(...page.body.memories.map((m) => m.content));
    cursor = page.body.next_cursor;
  } while (cursor);
  return all.sort();
}

describe('export', () => {
  it('streams what the caller can read, with contexts, newest first; a member never gets another’s private memories', async () => {
    const owner = await exportOf(source.owner);
    expect(owner.res.status).toBe(200);
    expect(owner.res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(owner.res.headers.get('content-disposition')).toBe('attachment; filename="memories.ndjson"');
    expect(owner.lines.map((l) => l.content)).toEqual(['Org shared: releases ship on Thursdays', 'Owner private: the staging DB is pg-14']);
    expect(owner.lines[1]).toMatchObject({ scope: 'user', tags: ['infra', 'db'], contexts: [{ snippet: 'we run pg 14 on staging', citation: { url: 'https://wiki.example/db' } }] });
    // Each line is the memory exactly as getMemoryById answers it.
    expect(owner.lines[1]).toEqual((await source.owner.api.get(`/v1/memory/${owner.lines[1]!.id}`)).body);

    const memberAll = await exportOf(member);
    expect(memberAll.lines.map((l) => l.content)).toEqual(['Member private: I prefer tabs', 'Org shared: releases ship on Thursdays']);
    expect((await exportOf(member, 'org')).lines.map((l) => l.content)).toEqual(['Org shared: releases ship on Thursdays']);
    expect((await exportOf(source.owner, 'user')).lines.map((l) => l.content)).toEqual(['Owner private: the staging DB is pg-14']);
    expect(memberAll.text).not.toContain('Owner private');
    expect(owner.text).not.toContain('Member private');
  });

  it('pages through the database: more memories than one page come out whole, once each', async () => {
    const many = await createTenant(server.services, server.url, 'Many org');
    const contents = Array.from({ length: 230 }, (_, i) => `Bulk memory ${String(i).padStart(3, '0')}`);
    const imported = await importInto(many.owner, ndjson(contents.map((content) => ({ content }))));
    expect(imported.body).toMatchObject({ imported: 230, failed: 0 });
    const { lines } = await exportOf(many.owner);
    expect(lines.map((l) => l.content).sort()).toEqual(contents);
  });

  it('needs memory:read, and refuses an unknown scope', async () => {
    expect((await fetch(`${server.url}/v1/memory/export`)).status).toBe(401);
    const writer = await source.keyWithScopes(source.owner, ['memory:write']);
    expect((await exportOf(writer)).res.status).toBe(403);
    expect((await exportOf(source.owner, 'everyone')).res.status).toBe(400);
  });
});

describe('import', () => {
  it('round-trips an export into another org, and a second import of the same file stores nothing again', async () => {
    const target = await createTenant(server.services, server.url, 'Importing org');
    const { text } = await exportOf(source.owner);
    const first = await importInto(target.owner, text);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ imported: 2, skipped: 0, failed: 0, skipped_lines: [], failures: [], complete: true, last_line: 2 });
    const moved = await exportOf(target.owner);
    expect(moved.lines.map((l) => [l.content, l.scope, l.tags]).sort()).toEqual([
      ['Org shared: releases ship on Thursdays', 'org', ['process']],
      ['Owner private: the staging DB is pg-14', 'user', ['infra', 'db']],
    ]);
    expect(moved.lines.find((l) => l.scope === 'user')!.contexts).toMatchObject([{ snippet: 'we run pg 14 on staging', citation: { url: 'https://wiki.example/db' } }]);
    expect(moved.lines.every((l) => !text.includes(l.id))).toBe(true);

    const again = await importInto(target.owner, text);
    expect(again.body).toMatchObject({ imported: 0, skipped: 2, failed: 0, skipped_lines: [1, 2], complete: true });
    expect((await exportOf(target.owner)).lines).toHaveLength(2);
  });

  it('imports into another user of the same org: a member’s org-shared lines are refused, or stored as theirs with scope=user', async () => {
    const target = await createTenant(server.services, server.url, 'Importing org');
    const { text } = await exportOf(source.owner);
    expect((await importInto(target.owner, text)).body).toMatchObject({ imported: 2, failed: 0 });
    const colleague = await target.addMember('member');
    const plain = await importInto(colleague, text);
    expect(plain.body).toMatchObject({ imported: 1, failed: 1, failures: [{ line: 1, code: 'forbidden' }] });
    const asUser = await importInto(colleague, text, '?scope=user');
    expect(asUser.body).toMatchObject({ imported: 1, skipped: 1, failed: 0, skipped_lines: [2] });
    expect(await contentsOf(colleague)).toEqual([
      'Org shared: releases ship on Thursdays', // the org-shared one its owner imported
      'Org shared: releases ship on Thursdays',
      'Owner private: the staging DB is pg-14',
    ]);
  });

  it('reports bad lines by number and stores nothing of them; the good lines are saved', async () => {
    const tenant = await createTenant(server.services, server.url, 'Bad lines org');
    const body = ndjson([
      { content: 'Line one is fine' },
      '{"content": "unterminated',
      '',
      { content: '   ' },
      { content: 'x'.repeat(8001) },
      '[1, 2, 3]',
      { content: 'Line seven is fine', tags: ['a'.repeat(65)] },
      { content: 'Line eight is fine' },
    ]);
    const res = await importInto(tenant.owner, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 2, skipped: 0, failed: 5, complete: true, last_line: 8 });
    expect(res.body.failures.map((f: { line: number; code: string }) => [f.line, f.code])).toEqual([
      [2, 'validation_failed'],
      [4, 'validation_failed'],
      [5, 'validation_failed'],
      [6, 'validation_failed'],
      [7, 'validation_failed'],
    ]);
    expect(res.body.failures[0].detail).toBe('Line 2 is not JSON');
    expect(res.body.failures[1].errors).toEqual([{ path: 'content', message: 'Must be at least 1 character after trimming' }]);
    expect(res.body.failures[4].errors[0].path).toBe('tags.0');
    expect(await contentsOf(tenant.owner)).toEqual(['Line eight is fine', 'Line one is fine']);
  });

  it('hostile lines get clear per-line errors, never a 500: deep nesting, a huge line, invalid UTF-8, lone surrogates', async () => {
    const tenant = await createTenant(server.services, server.url, 'Hostile org');
    const deep = 100_000;
    const encoder = new TextEncoder();
    const lines: (string | Uint8Array)[] = [
      `{"content":"deep array","extra":${'['.repeat(deep)}${']'.repeat(deep)}}`,
      JSON.stringify({ content: 'deep citation', contexts: [{ snippet: 's', citation: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) }] }),
      JSON.stringify({ content: 'y'.repeat(BODY_LIMITS.requestBytes + 10) }),
      new Uint8Array([...encoder.encode('{"content":"bad '), 0xff, 0xfe, ...encoder.encode(' bytes"}')]),
      '{"content":"lone \\ud800 surrogate","tags":["\\udfff"]}',
      JSON.stringify({ content: 'after the hostile ones' }),
    ];
    const parts = lines.flatMap((line) => [typeof line === 'string' ? encoder.encode(line) : line, encoder.encode('\n')]);
    const body = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
    parts.reduce((offset, part) => (body.set(part, offset), offset + part.byteLength), 0);
    const res = await importInto(tenant.owner, body);
    expect(res.status).toBe(200);
    const byLine = Object.fromEntries(res.body.failures.map((f: { line: number; code: string; detail: string }) => [f.line, f]));
    // Unknown fields are dropped by the save schema, however deep they nest.
    expect(byLine[1]).toBeUndefined();
    expect(byLine[2]).toMatchObject({ code: 'validation_failed', errors: [{ path: 'contexts.0.citation', message: 'Must nest at most 16 levels deep' }] });
    expect(byLine[3]).toMatchObject({ code: 'payload_too_large', detail: `Line 3 is ${BODY_LIMITS.requestBytes + 24} bytes; a line is a save, at most ${BODY_LIMITS.requestBytes} bytes` });
    expect(byLine[4]).toMatchObject({ code: 'validation_failed', detail: 'Line 4 is not valid UTF-8' });
    expect(res.body).toMatchObject({ imported: 3, failed: 3, last_line: 6 });
    // As a save does: a lone surrogate is stored as U+FFFD.
    expect(await contentsOf(tenant.owner)).toEqual(['after the hostile ones', 'deep array', 'lone \ufffd surrogate']);
  });

  it('accepts mem0 memory objects and supermemory documents line by line', async () => {
    const tenant = await createTenant(server.services, server.url, 'Migrating org');
    const res = await importInto(
      tenant.owner,
      ndjson([
        { id: '7f1c', memory: 'Prefers dark mode', user_id: 'alex', categories: ['preferences'], metadata: {}, created_at: '2024-07-20T10:00:00Z' },
        { id: 'doc_1', content: 'Quarterly planning notes', containerTags: ['user_123'], metadata: { category: 'work' }, status: 'done' },
      ]),
    );
    expect(res.body).toMatchObject({ imported: 2, failed: 0 });
    const { lines } = await exportOf(tenant.owner);
    expect(lines.map((l) => [l.content, l.tags])).toEqual([
      ['Quarterly planning notes', []],
      ['Prefers dark mode', ['preferences']],
    ]);
  });

  it('redacts secrets as a save does, counts against the quota, and is audited', async () => {
    const quota = await startTestServer({ env: { MEMORY_QUOTA_PER_ORG: '2' } });
    try {
      const tenant = await createTenant(quota.services, quota.url, 'Quota org');
      const res = await fetch(`${quota.url}/v1/memory/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.owner.key}`, 'content-type': 'application/jsonl' },
        body: ndjson([{ content: `the key is ${anthropicKey}` }, { content: 'second' }, { content: 'third' }]),
      });
      const summary = await res.json();
      expect(summary).toMatchObject({ imported: 2, failed: 1, failures: [{ line: 3, code: 'quota_exceeded' }] });
      const stored = await tenant.owner.api.get('/v1/memory');
      expectStatus(stored, 200);
      expect(stored.body.memories.map((m) => m.content).sort()).toEqual(['second', 'the key is [REDACTED:anthropic_key]']);
      const audit = await tenant.owner.api.get('/v1/admin/audit?action=memory.import');
      expectStatus(audit, 200);
      expect(audit.body.events).toMatchObject([{ action: 'memory.import', counts: { imported: 2, skipped: 0, failed: 1 } }]);
      await fetch(`${quota.url}/v1/memory/export`, { headers: { authorization: `Bearer ${tenant.owner.key}` } }).then((r) => r.text());
      const exports = await tenant.owner.api.get('/v1/admin/audit?action=memory.export');
      expectStatus(exports, 200);
      expect(exports.body.events).toMatchObject([{ action: 'memory.export', counts: { memories: 2 } }]);
      expect(JSON.stringify(audit.body)).not.toContain('second');

      // Concurrent imports into one org take the org's lock per chunk: never past the quota.
      const racing = await createTenant(quota.services, quota.url, 'Racing quota org');
      const summaries = await Promise.all(
        ['a', 'b', 'c'].map((file) =>
          fetch(`${quota.url}/v1/memory/import`, {
            method: 'POST',
            headers: { authorization: `Bearer ${racing.owner.key}`, 'content-type': 'application/x-ndjson' },
            body: ndjson([1, 2].map((n) => ({ content: `racing ${file}${n}` }))),
          }).then((r) => r.json() as Promise<{ imported: number; failed: number }>),
        ),
      );
      expect(summaries.reduce((n, s) => n + s.imported, 0)).toBe(2);
      expect(summaries.reduce((n, s) => n + s.failed, 0)).toBe(4);
      expect(bodyOf(await racing.owner.api.get('/v1/memory'), 200).memories).toHaveLength(2);
    } finally {
      await quota.close();
    }
  });

  it('refuses other media types, an empty body, and needs memory:write', async () => {
    expect((await importInto(source.owner, '{"content":"x"}', '', 'application/json')).body).toMatchObject({ status: 415, type: 'urn:memory-bank:problem:unsupported_media_type' });
    const reader = await source.keyWithScopes(source.owner, ['memory:read']);
    expect((await importInto(reader, ndjson([{ content: 'x' }]))).status).toBe(403);
    expect((await importInto(source.owner, '', '?scope=team')).status).toBe(400);
  });

  it('stops at its share of REQUEST_TIMEOUT_MS and says so, holds only a line of the body budget meanwhile; sending the file again goes on where it stopped', async () => {
    // 4 MiB of bodies at once: an import charged at its 32 MiB limit would shut out every other write.
    const slow = await startTestServer({ env: { REQUEST_TIMEOUT_MS: '8000', MAX_BODY_BYTES_IN_FLIGHT: String(4 * 1024 * 1024) } });
    const upload = new AbortController();
    try {
      const tenant = await createTenant(slow.services, slow.url, 'Deadline org');
      let sent = 0;
      // A body that never ends: only the deadline can stop the import.
      const endless = new ReadableStream<Uint8Array>({
        async pull(controller) {
          // Never a loop of microtasks only (were the body ever read without backpressure,
          // timers would stop), and no more lines once the test is over.
          await new Promise((resolve) => setImmediate(resolve));
          if (upload.signal.aborted) return controller.error(upload.signal.reason);
          // Many lines a chunk: a chunk a line would keep this process (the server's too) busy sending.
          const lines = Array.from({ length: 1000 }, () => `${JSON.stringify({ content: `endless line ${++sent}` })}\n`);
          controller.enqueue(new TextEncoder().encode(lines.join('')));
        },
      });
      const importing = fetch(`${slow.url}/v1/memory/import`, {
        signal: upload.signal,
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.owner.key}`, 'content-type': 'application/x-ndjson' },
        body: endless,
        duplex: 'half',
      } as RequestInit);
      // Aborted in `finally` when an assertion fails first: that rejection is expected.
      importing.catch(() => undefined);
      // Under way once its first line is stored; then another write still gets in.
      const stored = async () => bodyOf(await tenant.owner.api.get('/v1/memory?limit=100'), 200).memories.length;
      await expect.poll(stored, { timeout: 20_000, interval: 50 }).toBeGreaterThan(0);
      const save = await tenant.owner.api.post('/v1/memory', { body: { content: 'saved while an import streams' } });
      expectStatus(save, 201);
      const before = await stored();
      const res = await importing;
      expect(res.status).toBe(200);
      const summary = (await res.json()) as { complete: boolean; imported: number; last_line: number };
      expect(summary.complete).toBe(false);
      // The import went on after the save: the two were in flight together.
      expect(summary.imported).toBeGreaterThan(before - 1);
      expect(summary.imported).toBeGreaterThan(0);
      expect(summary.last_line).toBe(summary.imported);
      // It stopped between chunks, each written whole.
      expect(summary.imported % TRANSFER_LIMITS.importChunkLines).toBe(0);
      const again = await fetch(`${slow.url}/v1/memory/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.owner.key}`, 'content-type': 'application/x-ndjson' },
        body: ndjson(Array.from({ length: summary.imported + 3 }, (_, i) => ({ content: `endless line ${i + 1}` }))),
      }).then((r) => r.json());
      expect(again).toMatchObject({ imported: 3, skipped: summary.imported, failed: 0, complete: true });
    } finally {
      // A failed assertion leaves the endless upload running: end it before the server.
      upload.abort();
      await slow.close();
    }
  });

  it('skips a line imported before however late it comes again, and however it is spelt; an equal save through POST /v1/memory is a duplicate', async () => {
    // The app's clock runs ahead by `ahead` ms: the import outlives the idempotency window.
    let ahead = 0;
    const late = await startTestServer({ clock: { now: () => new Date(Date.now() + ahead) } });
    try {
      const tenant = await createTenant(late.services, late.url, 'Late org');
      const file = ndjson([{ content: 'Permanent one', tags: ['a', 'b'] }, { content: 'Permanent two' }]);
      const importLate = async (user: TestUser, body: string) =>
        (await fetch(`${late.url}/v1/memory/import`, { method: 'POST', headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/x-ndjson' }, body })).json();
      expect(await importLate(tenant.owner, file)).toMatchObject({ imported: 2, skipped: 0 });
      ahead += 2 * IDEMPOTENCY_LIMITS.keyTtlMs;
      expect(await importLate(tenant.owner, file)).toMatchObject({ imported: 0, skipped: 2, skipped_lines: [1, 2] });
      // The same saves spelt otherwise: spaces around the text and tags, a tag twice, the default scope and origin said aloud.
      const respelt = ndjson([{ content: '  Permanent one ', tags: [' a', 'b', 'a'], scope: 'user' }, { content: 'Permanent two', contexts: [] }, { content: 'Permanent two', scope: 'org' }]);
      expect(await importLate(tenant.owner, respelt)).toMatchObject({ imported: 1, skipped: 2, skipped_lines: [1, 2] });
      // One line twice in a file is saved once.
      expect(await importLate(tenant.owner, ndjson([{ content: 'Twice in one file' }, { content: 'Twice in one file' }]))).toMatchObject({ imported: 1, skipped: 1, skipped_lines: [2] });
      // Ordinary saves of equal text are duplicates of the imported memory, not copies.
      for (let i = 0; i < 2; i++) expect((await tenant.owner.api.post('/v1/memory', { body: { content: 'Permanent two' } })).status).toBe(200);
      // Keys are each user's: a colleague importing the same file gets their own copies.
      const colleague = await tenant.addMember('member');
      expect(await importLate(colleague, file)).toMatchObject({ imported: 2, skipped: 0 });
      const contents = bodyOf(await tenant.owner.api.get('/v1/memory?limit=100'), 200).memories.map((m) => m.content).sort();
      expect(contents).toEqual(['Permanent one', 'Permanent two', 'Permanent two', 'Twice in one file']);
    } finally {
      await late.close();
    }
  });

  it('concurrent imports of one file by one user store each line once', async () => {
    const tenant = await createTenant(server.services, server.url, 'Concurrent org');
    const file = ndjson(Array.from({ length: 250 }, (_, i) => ({ content: `Concurrent line ${i}` })));
    const summaries = await Promise.all([1, 2, 3].map(() => importInto(tenant.owner, file)));
    expect(summaries.map((s) => s.status)).toEqual([200, 200, 200]);
    expect(summaries.reduce((n, s) => n + s.body.imported, 0)).toBe(250);
    expect(summaries.reduce((n, s) => n + s.body.skipped, 0)).toBe(500);
    expect(await contentsOf(tenant.owner)).toHaveLength(250);
  });

  it('saves of the importing owner go through while its chunks are written (the two take their locks in one order, so neither is a deadlock victim)', async () => {
    const tenant = await createTenant(server.services, server.url, 'Import and saves org');
    // The owner's statistics exist before the import, as for anyone who saved before.
    expectStatus(await tenant.owner.api.post('/v1/memory', { body: { content: 'Saved before the import' } }), 201);
    const file = ndjson(Array.from({ length: 3000 }, (_, i) => ({ content: `Imported line ${i} about the kestrel pipeline` })));
    const importing = importInto(tenant.owner, file);
    const statuses: number[] = [];
    let importDone = false;
    void importing.finally(() => (importDone = true));
    for (let round = 0; !importDone || round < 3; round++) {
      const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => tenant.owner.api.post('/v1/memory', { body: { content: `Saved during the import, round ${round} save ${i}` } })));
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect((await importing).body).toMatchObject({ imported: 3000, failed: 0, complete: true });
    expect(statuses.filter((status) => status !== 201)).toEqual([]);
  });

  it('saves lines in chunks: a 1,000-line file costs this process little CPU time a line, and its lines are searchable', async () => {
    const tenant = await createTenant(server.services, server.url, 'Bulk org');
    const file = ndjson(Array.from({ length: 1000 }, (_, i) => ({ content: `Bulk line ${i} about the staging database and release ${i % 7}`, tags: [`t${i % 5}`] })));
    const cpu = process.cpuUsage();
    const res = await importInto(tenant.owner, file);
    const used = process.cpuUsage(cpu);
    expect(res.body).toMatchObject({ imported: 1000, failed: 0, complete: true });
    // CPU time of this process (the server runs in it), not wall time: load elsewhere does not count.
    // A transaction a line took about 3.4 ms a line here, a chunk of 100 about 1 ms.
    expect((used.user + used.system) / 1000 / 1000).toBeLessThan(2.2);
    // Search statistics followed the multi-row insert: the owner's ranking counts every line.
    const [rows] = (await server.database.db.execute(
      sql`SELECT term, docs FROM memory_term_stats WHERE owner_id = ${tenant.owner.userId} AND term IN ('', 'wrelease', 'wstaging')`,
    )) as unknown as [{ term: string; docs: number }[]];
    expect(Object.fromEntries(rows.map((r) => [r.term, Number(r.docs)]))).toEqual({ '': 1000, wrelease: 1000, wstaging: 1000 });
    const found = await tenant.owner.api.get('/v1/memory/search?q=staging%20release');
    expectStatus(found, 200);
    expect(found.body.results).toHaveLength(20);
  });

  it('export and import are not MCP tools', async () => {
    const client = new Client({ name: 'memory-bank-tests', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${source.owner.key}` } } }));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('postMemory');
    expect(names.filter((n) => /Export|Import/.test(n))).toEqual([]);
    await client.close();
  });
});
