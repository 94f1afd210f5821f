// `pnpm start` and `pnpm cli`: builds the bundle if the sources changed, then runs an entry
// point of it in this process. Usage: node launch.mjs main|cli [arguments…]
import { ensureBuilt } from './build.mjs';

const [entry, ...args] = process.argv.slice(2);
if (entry !== 'main' && entry !== 'cli') {
  console.error('usage: node launch.mjs main|cli [arguments…]');
  process.exit(64);
}
const directory = await ensureBuilt();
const script = `${directory}/${entry}.mjs`;
process.argv = [process.argv[0], script, ...args];
await import(script);
