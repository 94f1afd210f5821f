// Bundles the server and the CLI with esbuild, npm packages included: node then reads a few
// files instead of resolving and compiling hundreds (start-up is dominated by module
// loading), and no TypeScript is compiled at run time. Heavy optional parts (the S3
// driver, Redis, the MCP SDK) are split into chunks loaded on first use.
//
// Each build goes to dist/<fingerprint of the sources>/ and is never modified afterwards,
// so a running server keeps finding its lazily loaded chunks, and processes started at the
// same moment share one build.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ensureConsoleBuilt } from '../console/build.mjs';

const app = dirname(fileURLToPath(import.meta.url));
const root = join(app, '..', '..');
const dist = join(app, 'dist');
const KEEP_BUILDS = 3;

/** Paths, sizes and modification times of everything the bundle is made of. */
function fingerprint() {
  const hash = createHash('sha256');
  const inputs = [join(app, 'src'), join(root, 'packages', 'db', 'src')];
  const files = [join(app, 'build.mjs'), join(app, 'package.json'), join(root, 'packages', 'db', 'package.json'), join(root, 'pnpm-lock.yaml')];
  for (const input of inputs) {
    for (const entry of readdirSync(input, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files.push(join(entry.parentPath, entry.name));
    }
  }
  for (const file of files.sort()) {
    const stat = statSync(file);
    hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

async function bundle(outdir) {
  await build({
    entryPoints: { main: join(app, 'src', 'main.ts'), cli: join(app, 'src', 'cli.ts') },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    // swagger-ui-dist is served as files from node_modules, not imported.
    external: ['swagger-ui-dist'],
    // CommonJS packages (mysql2, pino…) call require(); give the ESM bundle one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    // Keep class and function names: errors are logged by name.
    keepNames: true,
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

function pruneOldBuilds(current) {
  const builds = readdirSync(dist, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^[0-9a-f]{16}$/.test(entry.name) && entry.name !== current)
    .map((entry) => ({ name: entry.name, at: statSync(join(dist, entry.name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of builds.slice(KEEP_BUILDS - 1)) rmSync(join(dist, old.name), { recursive: true, force: true });
}

/**
 * The directory of an up-to-date build, building it first if the sources changed. The web
 * console (apps/console), which the server serves at /console, is brought up to date too.
 */
export async function ensureBuilt() {
  await ensureConsoleBuilt();
  const id = fingerprint();
  const target = join(dist, id);
  if (existsSync(join(target, 'main.mjs'))) return target;
  const staging = join(dist, `.staging-${process.pid}-${Date.now()}`);
  mkdirSync(dist, { recursive: true });
  await bundle(staging);
  try {
    renameSync(staging, target);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // built by a concurrent process meanwhile
  }
  pruneOldBuilds(id);
  return target;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await ensureBuilt());
