// Fingerprinted builds, shared by the API bundle (apps/api/build.mjs) and the web console
// (apps/console/build.mjs): each build goes to dist/<fingerprint of its sources>/, is made in
// a staging directory and renamed into place (so a build directory is always complete and
// never modified), and only the newest few are kept.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const KEEP_BUILDS = 3;
const BUILD_NAME = /^[0-9a-f]{16}$/;

/** Paths, sizes and modification times of `files` and of every file below `directories` (missing ones skipped). */
export function fingerprintOf(files, directories) {
  const hash = createHash('sha256');
  const all = [...files];
  for (const directory of directories) {
    if (!existsSync(directory)) continue;
    for (const entry of readdirSync(directory, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) all.push(join(entry.parentPath, entry.name));
    }
  }
  for (const file of all.sort()) {
    const stat = statSync(file);
    hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * dist/<id>, built first by `bundle(directory)` unless `built(directory)` says it is there.
 * Processes building the same id at once each build in their own staging directory; the
 * first rename wins. Older builds beyond the newest few are removed.
 */
export async function buildOnce(dist, id, { built, bundle }) {
  const target = join(dist, id);
  if (!built(target)) {
    const staging = join(dist, `.staging-${process.pid}-${Date.now()}`);
    mkdirSync(dist, { recursive: true });
    await bundle(staging);
    try {
      renameSync(staging, target);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // built by a concurrent process meanwhile
    }
  }
  const older = readdirSync(dist, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && BUILD_NAME.test(entry.name) && entry.name !== id)
    .map((entry) => ({ name: entry.name, at: statSync(join(dist, entry.name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of older.slice(KEEP_BUILDS - 1)) rmSync(join(dist, old.name), { recursive: true, force: true });
  return target;
}
