// `pnpm start` and `pnpm cli`: runs an entry point of the bundle in this process, so the
// server is the process pnpm (or a container runtime) signals. Usage: node launch.mjs main|cli [arguments…]
//
// From a checkout (src/ present) it builds the bundle first if the sources changed. Without
// the sources (the container image) it runs the bundle built at image build and writes
// nothing, so it runs as a user who may not write there.
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
const directory = existsSync(join(app, 'src')) ? await (await import('./build.mjs')).ensureBuilt() : prebuilt();
const script = `${directory}/${entry}.mjs`;
process.argv = [process.argv[0], script, ...args];
await import(script);
