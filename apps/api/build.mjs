// Bundles the server and the CLI with esbuild, npm packages included: node then reads a few
// files instead of resolving and compiling hundreds (start-up is dominated by module
// loading), and no TypeScript is compiled at run time. Heavy optional parts (the S3
// driver, Redis, the MCP SDK) are split into chunks loaded on first use.
//
// Each build goes to dist/<fingerprint of the sources>/ and is never modified afterwards,
// so a running server keeps finding its lazily loaded chunks, and processes started at the
// same moment share one build.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOnce, fingerprintOf } from '../../scripts/build-cache.mjs';
import { consoleUpToDate, ensureConsoleBuilt } from '../console/build.mjs';

const app = dirname(fileURLToPath(import.meta.url));
const root = join(app, '..', '..');
const dist = join(app, 'dist');

/** Paths, sizes and modification times of everything the bundle is made of. */
function fingerprint() {
  return fingerprintOf(
    [join(app, 'build.mjs'), join(app, 'package.json'), join(root, 'packages', 'db', 'package.json'), join(root, 'pnpm-lock.yaml')],
    [join(app, 'src'), join(root, 'packages', 'db', 'src')],
  );
}

async function bundle(outdir) {
  const { build } = await import('esbuild');
  await build({
    // The embedding worker thread is a file of its own beside the bundle (embeddings/compute-worker-client.ts finds it there).
    entryPoints: { main: join(app, 'src', 'main.ts'), cli: join(app, 'src', 'cli.ts'), 'compute-worker': join(app, 'src', 'embeddings', 'compute-worker.mjs') },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    // swagger-ui-dist is served as files from node_modules, not imported; the embedding
    // model's packages read their weights and WebAssembly beside their own files.
    external: ['swagger-ui-dist', '@energetic-ai/*'],
    // CommonJS packages (mysql2, pino…) call require(); give the ESM bundle one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    // No keepNames: it wraps every function expression in a runtime __name() call, closures
    // made per request included (~3 % of the service's CPU under load). Our errors carry
    // their names as fields (errors.ts); stack traces name functions without it.
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

const hasBundle = (target) => existsSync(join(target, 'main.mjs'));

/**
 * The directory of the build of the current sources when it and the console's are up to
 * date; null when a build is due. Loads neither esbuild nor Vite.
 */
export function upToDateBuild() {
  const target = join(dist, fingerprint());
  return hasBundle(target) && consoleUpToDate() ? target : null;
}

/**
 * The directory of an up-to-date build, building it first if the sources changed. The web
 * console (apps/console), which the server serves at /console, is brought up to date too.
 */
export async function ensureBuilt() {
  await ensureConsoleBuilt();
  return buildOnce(dist, fingerprint(), { built: hasBundle, bundle });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await ensureBuilt());
