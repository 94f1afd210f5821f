// Builds the console with Vite. Each build goes to dist/<fingerprint of the sources>/ and is
// never modified afterwards; dist/current then names it (written atomically), so the API
// serves one complete build at every moment and processes started together share one build.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const app = dirname(fileURLToPath(import.meta.url));
const root = join(app, '..', '..');
const dist = join(app, 'dist');
const KEEP_BUILDS = 3;

function fingerprint() {
  const hash = createHash('sha256');
  const files = [join(app, 'build.mjs'), join(app, 'index.html'), join(app, 'package.json'), join(root, 'pnpm-lock.yaml')];
  for (const input of [join(app, 'src'), join(root, 'packages', 'client', 'src')]) {
    if (!existsSync(input)) continue;
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

async function bundle(outDir) {
  const { build } = await import('vite');
  // Vite picks packages' development builds when NODE_ENV says so (a test run sets "test").
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await buildWith(build, outDir);
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

async function buildWith(build, outDir) {
  await build({
    root: app,
    base: '/console/',
    configFile: false,
    mode: 'production',
    logLevel: 'warn',
    oxc: { jsx: { runtime: 'automatic' } },
    build: { outDir, emptyOutDir: true, target: 'es2022', sourcemap: false, modulePreload: { polyfill: false }, reportCompressedSize: false,
      rolldownOptions: {
        // React Query marks its modules "use client" (for server components); meaningless here.
        onwarn(warning, warn) {
          if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
        },
      },
    },
  });
}

function pruneOldBuilds(current) {
  const builds = readdirSync(dist, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^[0-9a-f]{16}$/.test(entry.name) && entry.name !== current)
    .map((entry) => ({ name: entry.name, at: statSync(join(dist, entry.name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of builds.slice(KEEP_BUILDS - 1)) rmSync(join(dist, old.name), { recursive: true, force: true });
}

function pointAt(id) {
  const pointer = join(dist, 'current');
  if (existsSync(pointer) && readFileSync(pointer, 'utf8').trim() === id) return;
  const staging = join(dist, `.current-${process.pid}-${Date.now()}`);
  writeFileSync(staging, `${id}\n`);
  renameSync(staging, pointer);
}

/** The directory of an up-to-date console build, building it first if the sources changed. */
export async function ensureConsoleBuilt() {
  const id = fingerprint();
  const target = join(dist, id);
  if (!existsSync(join(target, 'index.html'))) {
    const staging = join(dist, `.staging-${process.pid}-${Date.now()}`);
    mkdirSync(dist, { recursive: true });
    await bundle(staging);
    try {
      renameSync(staging, target);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // built by a concurrent process meanwhile
    }
  }
  pointAt(id);
  pruneOldBuilds(id);
  return target;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await ensureConsoleBuilt());
