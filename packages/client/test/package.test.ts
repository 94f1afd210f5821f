import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm pack` of @memory-bank/client, installed as a project outside the workspace would
 * install it, without the network: the tarball unpacked into a consumer's node_modules beside
 * the workspace's openapi-fetch (its one dependency), then imported by plain Node, type-checked
 * as a Node ESM project would check it, and bundled by Vite.
 */
const run = promisify(execFile);
const pkg = join(import.meta.dirname, '..');
const repo = join(pkg, '..', '..');
const tsc = join(pkg, 'node_modules', '.bin', 'tsc'); // the package's own TypeScript 5.9
/** No update check or audit: npm pack of a local folder needs no registry. */
const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };

let work: string;
let consumer: string;
let packed: { filename: string; files: { path: string }[] };

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'mb-client-pack-'));
  // A copy laid out as in the repository (tsconfig.json extends ../../tsconfig.base.json) and
  // sharing its node_modules: the pack's build (prepack) writes dist/ there, not in the checkout.
  const copy = join(work, 'packages', 'client');
  await mkdir(copy, { recursive: true });
  await cp(join(repo, 'tsconfig.base.json'), join(work, 'tsconfig.base.json'));
  for (const name of ['package.json', 'README.md', 'tsconfig.json', 'tsconfig.build.json', 'src']) await cp(join(pkg, name), join(copy, name), { recursive: true });
  await symlink(join(pkg, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: copy, env: npmEnv });
  packed = (JSON.parse(stdout) as (typeof packed)[])[0]!;

  consumer = join(work, 'consumer');
  const installed = join(consumer, 'node_modules', '@memory-bank', 'client');
  await mkdir(installed, { recursive: true });
  await run('tar', ['-xzf', join(work, packed.filename), '-C', installed, '--strip-components=1']);
  await symlink(await realpath(join(pkg, 'node_modules', 'openapi-fetch')), join(consumer, 'node_modules', 'openapi-fetch'), 'dir');
  await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
}, 120_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('npm pack of @memory-bank/client', () => {
  it('ships JavaScript with declarations, the README and package.json: no sources, no tests', () => {
    const files = packed.files.map((file) => file.path).sort();
    expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/client.js', 'dist/generated/schema.d.ts', 'package.json', 'README.md']));
    expect(files.filter((file) => !file.startsWith('dist/'))).toEqual(['README.md', 'package.json']);
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    for (const js of files.filter((file) => file.endsWith('.js'))) expect(files, js).toContain(js.replace(/\.js$/, '.d.ts'));
  });

  it('imports by its name in plain Node (ESM) and makes typed calls', async () => {
    const script = `
      import { createMemoryBankClient, ok, MemoryBankError } from '@memory-bank/client';
      const seen = [];
      const fetch = async (request) => {
        seen.push(request.method + ' ' + new URL(request.url).pathname + ' ' + request.headers.get('authorization'));
        return new Response(JSON.stringify({ memories: [], next_cursor: null }), { headers: { 'content-type': 'application/json' } });
      };
      const mb = createMemoryBankClient({ baseUrl: 'http://127.0.0.1:9', token: 'mbk_test', fetch });
      const page = await ok(mb.GET('/v1/memory'));
      console.log(JSON.stringify({ page, seen, error: typeof MemoryBankError }));
    `;
    await writeFile(join(consumer, 'check.mjs'), script);
    const { stdout } = await run(process.execPath, ['check.mjs'], { cwd: consumer });
    expect(JSON.parse(stdout)).toEqual({ page: { memories: [], next_cursor: null }, seen: ['GET /v1/memory Bearer mbk_test'], error: 'function' });
  });

  it('type-checks in a Node ESM TypeScript project (nodenext), with the API’s types', async () => {
    await writeFile(
      join(consumer, 'index.ts'),
      [
        "import { createMemoryBankClient, ok, type components } from '@memory-bank/client';",
        "const mb = createMemoryBankClient({ baseUrl: 'http://127.0.0.1:9', token: 'mbk_test' });",
        "export const saved: Promise<components['schemas']['SavedMemory']> = ok(mb.POST('/v1/memory', { body: { content: 'typed' } }));",
        '// @ts-expect-error: no such path (the types are the API’s, not any)',
        "void mb.GET('/v1/no-such-path');",
      ].join('\n'),
    );
    await writeFile(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2023', 'dom'], types: [], strict: true, noEmit: true }, files: ['index.ts'] }),
    );
    await run(tsc, ['-p', consumer]).catch((error: { stdout?: string }) => expect.fail(error.stdout ?? String(error)));
  }, 60_000);

  it('bundles with Vite for a browser', async () => {
    await writeFile(join(consumer, 'index.html'), '<!doctype html><script type="module" src="/main.js"></script>');
    await writeFile(
      join(consumer, 'main.js'),
      "import { createMemoryBankClient } from '@memory-bank/client';\nwindow.mb = createMemoryBankClient({ token: () => sessionStorage.getItem('key') ?? '' });\n",
    );
    const { build } = await import('vite');
    const outDir = join(consumer, 'dist');
    await build({ root: consumer, configFile: false, logLevel: 'silent', build: { outDir, emptyOutDir: true }, mode: 'production' });
    const html = await readFile(join(outDir, 'index.html'), 'utf8');
    const script = html.match(/src="\/(assets\/[^"]+\.js)"/)?.[1];
    expect(script).toBeDefined();
    const bundled = await readFile(join(outDir, script!), 'utf8');
    expect(bundled).toContain('idempotency-key');
    expect(bundled).not.toMatch(/from\s*["']node:/);
  }, 60_000);
});
