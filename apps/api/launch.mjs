// `pnpm start` and `pnpm cli`: runs an entry point of the bundle in this process, so the
// server is the process pnpm (or a container runtime) signals. Usage: node launch.mjs main|cli [arguments…]
//
// From a checkout (src/ present) it builds the bundle first if the sources changed, in a
// process of its own: what esbuild and Vite load (~100 MB and more) never stays in the
// server's memory. Without the sources (the container image) it runs the bundle built at
// image build and writes nothing, so it runs as a user who may not write there.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const app = dirname(fileURLToPath(import.meta.url));

/** The newest complete build in dist/ (a directory named by its sources' fingerprint). */
function prebuilt() {
  const dist = join(app, 'dist');
  const builds = existsSync(dist)
    ? readdirSync(dist)
        .filter((name) => /^[0-9a-f]{16}$/.test(name) && existsSync(join(dist, name, 'main.mjs')))
        .map((name) => ({ directory: join(dist, name), at: statSync(join(dist, name)).mtimeMs }))
        .sort((a, b) => b.at - a.at)
    : [];
  if (builds.length === 0) {
    console.error(`No sources and no bundle in ${dist}: run \`pnpm build\` where the sources are.`);
    process.exit(1);
  }
  return builds[0].directory;
}

const [entry, ...args] = process.argv.slice(2);
if (entry !== 'main' && entry !== 'cli') {
  console.error('usage: node launch.mjs main|cli [arguments…]');
  process.exit(64);
}
/** From a checkout: the current build, made first (by `node build.mjs`, which prints its directory) when due. */
async function fromCheckout() {
  const { upToDateBuild } = await import('./build.mjs');
  const built = upToDateBuild();
  if (built) return built;
  const printed = execFileSync(process.execPath, [join(app, 'build.mjs')], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  return printed.trim().split('\n').at(-1);
}

const directory = existsSync(join(app, 'src')) ? await fromCheckout() : prebuilt();
const script = `${directory}/${entry}.mjs`;
process.argv = [process.argv[0], script, ...args];
await import(script);
