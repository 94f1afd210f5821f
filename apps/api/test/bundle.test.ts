import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
// @ts-expect-error build.mjs is plain JavaScript without types.
import { ensureBuilt } from '../build.mjs';

const run = promisify(execFile);

// `pnpm start` puts pnpm's package store on NODE_PATH; `node apps/api/launch.mjs` (and a
// container started without pnpm) does not. Every module of the bundle must load anyway:
// a package reached only through a runtime require() would be missing.
describe('the service bundle', () => {
  it('loads every module with plain node, nothing but the bundle on the path', async () => {
    const directory: string = await ensureBuilt();
    const modules = readdirSync(directory).filter((file) => file.startsWith('chunk-') && file.endsWith('.mjs'));
    expect(modules.length).toBeGreaterThan(0);
    const { NODE_PATH: _path, ...env } = process.env;
    const failures: string[] = [];
    for (const module of modules) {
      const { stdout } = await run(process.execPath, ['-e', `import(${JSON.stringify(`${directory}/${module}`)}).then(() => console.log('ok'), (e) => console.log(e.message.split('\\n')[0]))`], { env });
      if (stdout.trim() !== 'ok') failures.push(`${module}: ${stdout.trim()}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
