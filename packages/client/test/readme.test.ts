import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../apps/api/test/support/server';
import { bodyOf } from '../../../apps/api/test/support/http';
import { createTenant } from '../../../apps/api/test/support/tenants';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

it('the README’s five lines run as written', async () => {
  const readme = await readFile(join(import.meta.dirname, '../README.md'), 'utf8');
  const snippet = readme.match(/```ts\n([\s\S]*?)```/)![1]!;
  expect(snippet.trim().split('\n')).toHaveLength(5);
  // The repository's README shows the same five lines.
  const rootReadme = await readFile(join(import.meta.dirname, '../../../README.md'), 'utf8');
  expect(rootReadme.match(/```ts\n([\s\S]*?)```/)?.[1]).toBe(snippet);
  const tenant = await createTenant(server.services, server.url);
  const dir = await mkdtemp(join(import.meta.dirname, '.readme-'));
  const logged: unknown[] = [];
  const log = console.log;
  process.env.MEMORY_BANK_URL = server.url;
  process.env.MEMORY_BANK_API_KEY = tenant.owner.key;
  console.log = (...args: unknown[]) => void logged.push(args);
  try {
    await writeFile(join(dir, 'snippet.ts'), snippet.replace("'@memory-bank/client'", "'../../src'"));
    await import(join(dir, 'snippet.ts'));
  } finally {
    console.log = log;
    delete process.env.MEMORY_BANK_URL;
    delete process.env.MEMORY_BANK_API_KEY;
    await rm(dir, { recursive: true, force: true });
  }
  expect(logged).toEqual([[['Deploys happen on Tuesdays']]]);
  expect(bodyOf(await tenant.owner.api.get('/v1/memory'), 200).memories).toEqual([]);
});
