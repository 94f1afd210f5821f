import { randomUUID } from 'node:crypto';
import { link, mkdir, open, readdir, readFile, rmdir, unlink } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { ObjectConflictError, type ObjectStore } from './object-store';

/**
 * Names starting with this are in-flight writes. Keys may not use it for any segment, so
 * `list` can skip temp files without ever hiding a real object.
 */
const TEMP_PREFIX = '.tmp-';
const MAX_KEY_BYTES = 1024; // S3's limit; the filesystem driver keeps to it too so both drivers accept the same keys.
// A concurrent delete may prune the directory between our mkdir and our create; a few rounds settle it.
const MAX_PUT_ROUNDS = 5;

/**
 * Rejects keys that are not plain relative `/`-separated paths. Shared by both drivers so a
 * key that works on one works on the other, and so a key can never climb out of the
 * filesystem root.
 */
export function assertObjectKey(key: string): void {
  const problem = keyProblem(key);
  if (problem) throw new Error(`Invalid object key ${JSON.stringify(key.slice(0, 200))}: ${problem}`);
}

/** A list prefix: empty (everything), or a valid key optionally followed by `/`. */
export function assertObjectPrefix(prefix: string): void {
  if (prefix === '') return;
  const problem = keyProblem(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
  if (problem) throw new Error(`Invalid object prefix ${JSON.stringify(prefix.slice(0, 200))}: ${problem}`);
}

function keyProblem(key: string): string | undefined {
  if (key === '') return 'empty';
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) return `longer than ${MAX_KEY_BYTES} bytes`;
  // Control characters (NUL included) break paths, logs and S3 XML listings alike.
  if (/[\u0000-\u001f\u007f]/.test(key)) return 'contains a control character';
  if (key.includes('\\')) return 'contains a backslash';
  if (key.startsWith('/')) return 'is absolute';
  for (const segment of key.split('/')) {
    if (segment === '') return 'has an empty segment';
    if (segment === '.' || segment === '..') return `has a "${segment}" segment`;
    if (segment.startsWith(TEMP_PREFIX)) return `has a segment starting with the reserved "${TEMP_PREFIX}"`;
  }
  return undefined;
}

/**
 * Objects as files under a root directory. Writes are crash-safe: the bytes go to a temp
 * file that is fsynced and then hard-linked into place, so a key either does not exist or
 * holds its complete content, and `link()` failing with EEXIST is what makes it
 * write-once even between processes.
 */
export class FilesystemObjectStore implements ObjectStore {
  readonly root: string;
  readonly description: string;

  constructor(root: string) {
    this.root = resolve(root);
    this.description = `filesystem ${this.root}`;
  }

  async putImmutable(key: string, body: Uint8Array, _contentType: string): Promise<void> {
    const target = this.pathFor(key);
    const directory = dirname(target);
    for (let round = 1; ; round++) {
      try {
        await mkdir(directory, { recursive: true });
        await this.linkNewFile(directory, target, body);
        return;
      } catch (error) {
        if (errno(error) === 'EEXIST') return this.matchExisting(key, target, body);
        if (errno(error) === 'ENOENT' && round < MAX_PUT_ROUNDS) continue;
        throw error;
      }
    }
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      return new Uint8Array(await readFile(this.pathFor(key)));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async list(prefix: string): Promise<string[]> {
    assertObjectPrefix(prefix);
    // Walk from the deepest whole directory named by the prefix, then filter by the rest.
    const base = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    const start = base === '' ? this.root : join(this.root, ...base.slice(0, -1).split('/'));
    const keys: string[] = [];
    await walk(start, base, keys);
    return keys.filter((key) => key.startsWith(prefix)).sort();
  }

  async delete(key: string): Promise<void> {
    const target = this.pathFor(key);
    try {
      await unlink(target);
    } catch (error) {
      // EISDIR/EPERM: the key names a "folder" of other keys, i.e. no object by that key.
      if (!isMissing(error) && errno(error) !== 'EPERM') throw error;
    }
    const survivor = await this.pruneEmptyDirectories(dirname(target));
    // An acknowledged delete must not come back after a crash (erasure requests rely on it).
    await fsyncDirectory(survivor);
  }

  /** Nothing to release; present so both drivers close the same way. */
  async close(): Promise<void> {}

  private pathFor(key: string): string {
    assertObjectKey(key);
    const path = join(this.root, ...key.split('/'));
    // Defence in depth: validation already rules this out.
    const rel = relative(this.root, path);
    if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..') throw new Error(`Invalid object key: escapes the root`);
    return path;
  }

  private async linkNewFile(directory: string, target: string, body: Uint8Array): Promise<void> {
    const temp = join(directory, `${TEMP_PREFIX}${randomUUID()}`);
    const handle = await open(temp, 'wx', 0o644);
    try {
      try {
        await handle.writeFile(body);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await link(temp, target);
    } finally {
      await unlink(temp).catch(() => undefined);
    }
    // The new name, and any directory mkdir just created, must be durable before we
    // acknowledge; fsyncing up to the root also covers directories a concurrent writer
    // created and has not fsynced yet.
    for (let dir = directory; ; dir = dirname(dir)) {
      await fsyncDirectory(dir);
      if (dir === this.root || dirname(dir) === dir) break;
    }
  }

  private async matchExisting(key: string, target: string, body: Uint8Array): Promise<void> {
    const existing = await readFile(target);
    if (!existing.equals(body)) throw new ObjectConflictError(key);
  }

  /** Removes empty directories from `directory` up to (not including) the root; returns the first one kept. */
  private async pruneEmptyDirectories(directory: string): Promise<string> {
    let dir = directory;
    while (dir !== this.root && dir.startsWith(this.root + sep)) {
      try {
        await rmdir(dir);
      } catch (error) {
        const code = errno(error);
        if (code === 'ENOTEMPTY' || code === 'EEXIST') return dir;
        if (code !== 'ENOENT') throw error;
      }
      dir = dirname(dir);
    }
    return dir;
  }
}

async function walk(dir: string, keyPrefix: string, into: string[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    // Missing, or pruned by a concurrent delete while we walked.
    if (isMissing(error)) return;
    throw error;
  }
  for (const entry of entries) {
    if (entry.name.startsWith(TEMP_PREFIX)) continue;
    if (entry.isDirectory()) await walk(join(dir, entry.name), `${keyPrefix}${entry.name}/`, into);
    else if (entry.isFile()) into.push(`${keyPrefix}${entry.name}`);
  }
}

async function fsyncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
  } catch (error) {
    // Removed by a concurrent delete: nothing of ours left in it to make durable.
    if (errno(error) === 'ENOENT') return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    // Some filesystems cannot fsync a directory; the file itself was fsynced.
    if (errno(error) !== 'EINVAL' && errno(error) !== 'EISDIR') throw error;
  } finally {
    await handle.close();
  }
}

function errno(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** The path is not a file: nothing there, a parent is a file, or it is a directory. */
function isMissing(error: unknown): boolean {
  const code = errno(error);
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}
