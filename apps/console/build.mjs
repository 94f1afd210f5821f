// Builds the console with Vite. Each build goes to dist/<fingerprint of the sources>/ and is
// never modified afterwards; dist/current then names it (written atomically), so the API
// serves one complete build at every moment and processes started together share one build.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOnce, fingerprintOf } from '../../scripts/build-cache.mjs';

const app = dirname(fileURLToPath(import.meta.url));
const root = join(app, '..', '..');
const dist = join(app, 'dist');

function fingerprint() {
  return fingerprintOf(
    [join(app, 'build.mjs'), join(app, 'index.html'), join(app, 'package.json'), join(root, 'packages', 'client', 'package.json'), join(root, 'pnpm-lock.yaml')],
    [join(app, 'src'), join(root, 'packages', 'client', 'src')],
  );
}

async function bundle(outDir) {
  const { build, defaultClientConditions } = await import('vite');
  // Vite picks packages' development builds when NODE_ENV says so (a test run sets "test").
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await buildWith(build, defaultClientConditions, outDir);
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

async function buildWith(build, defaultClientConditions, outDir) {
  await build({
    root: app,
    base: '/console/',
    configFile: false,
    mode: 'production',
    logLevel: 'warn',
    oxc: { jsx: { runtime: 'automatic' } },
    // The workspace's @memory-bank/client from its sources, so no build of it comes first.
    resolve: { conditions: ['@memory-bank/source', ...defaultClientConditions] },
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

function pointAt(id) {
  const pointer = join(dist, 'current');
  if (existsSync(pointer) && readFileSync(pointer, 'utf8').trim() === id) return;
  const staging = join(dist, `.current-${process.pid}-${Date.now()}`);
  writeFileSync(staging, `${id}\n`);
  renameSync(staging, pointer);
}

/** Whether the build of the current sources is there and dist/current names it: nothing to do. */
export function consoleUpToDate() {
  const id = fingerprint();
  const pointer = join(dist, 'current');
  return existsSync(join(dist, id, 'index.html')) && existsSync(pointer) && readFileSync(pointer, 'utf8').trim() === id;
}

/** The directory of an up-to-date console build, building it first if the sources changed. */
export async function ensureConsoleBuilt() {
  const id = fingerprint();
  const target = await buildOnce(dist, id, { built: (directory) => existsSync(join(directory, 'index.html')), bundle });
  pointAt(id);
  return target;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await ensureConsoleBuilt());
