import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../apps/api/test/support/server';
import { createTenant } from '../../../apps/api/test/support/tenants';
import { createMemoryBankClient, ok, type Memory } from '../src';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const found: T[] = [];
  for await (const item of items) found.push(item);
  return found;
}

it('exports as records and imports records, text, Blobs and streams; a second import stores nothing again', async () => {
  const [from, to] = await Promise.all([createTenant(server.services, server.url, 'From org'), createTenant(server.services, server.url, 'To org')]);
  const source = createMemoryBankClient({ baseUrl: server.url, token: from.owner.key });
  const target = createMemoryBankClient({ baseUrl: server.url, token: async () => to.owner.key });
  for (let i = 0; i < 3; i++) {
    await ok(source.POST('/v1/memory', { body: { content: `Exported fact ${i}`, tags: ['moved'], contexts: [{ snippet: `where fact ${i} came from` }] } }));
  }

  const exported = await all(source.exportMemories());
  expect(exported.map((m) => m.content)).toEqual(['Exported fact 2', 'Exported fact 1', 'Exported fact 0']);
  expect(exported[0]!.contexts[0]!.snippet).toBe('where fact 2 came from');

  // Straight from one account's export into another's, streamed.
  expect(await target.importMemories(source.exportMemories())).toMatchObject({ imported: 3, skipped: 0, failed: 0, complete: true });
  const text = exported.map((m) => JSON.stringify(m)).join('\n');
  expect(await target.importMemories(text)).toMatchObject({ imported: 0, skipped: 3, skipped_lines: [1, 2, 3] });
  expect(await target.importMemories(new Blob([text], { type: 'application/x-ndjson' }))).toMatchObject({ skipped: 3 });
  expect(await target.importMemories(new Blob([text]).stream())).toMatchObject({ skipped: 3 });

  const moved: Memory[] = await all(target.exportMemories({ scope: 'user' }));
  expect(moved.map((m) => [m.content, m.tags, m.contexts.map((c) => c.snippet)]).sort()).toEqual(
    exported.map((m) => [m.content, m.tags, m.contexts.map((c) => c.snippet)]).sort(),
  );

  const report = await target.importMemories('{"content":"fine"}\nnot json\n{"content":""}\n');
  expect(report).toMatchObject({ imported: 1, failed: 2, failures: [{ line: 2, code: 'validation_failed' }, { line: 3, code: 'validation_failed' }] });
  await expect(createMemoryBankClient({ baseUrl: server.url, token: 'mbk_nope' }).importMemories('{}')).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
});
