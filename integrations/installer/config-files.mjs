// How the installer changes a harness's configuration file and takes its change back out.
//
// Three kinds of target:
//   json   a JSON config the user also edits: our entries are merged in and taken out again;
//          everything else is kept (re-indented as the file was indented)
//   block  a TOML config: our tables go in one marked block at the end, removed whole
//   owned  a file that is ours alone (a plugin, a Cline hook script): written, then deleted;
//          a file of the same name that is not ours is kept ('kept') and left to the user
//
// Before the first change to an existing file, its bytes are copied to <file>.memory-bank-backup
// (again only while the file holds nothing of ours, so the backup is always the file as it was
// without Memory Bank). Uninstalling restores those exact bytes when, once our entries are out,
// the file means the same as the backup; otherwise (the user changed other things since) it keeps
// their changes and only takes ours out. A file we created is deleted again.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

export const BACKUP_SUFFIX = '.memory-bank-backup';

/** Something the installer refuses to do, said so the user can act on it. */
export class InstallRefusal extends Error {}

const readOrNull = (path) => (existsSync(path) ? readFileSync(path, 'utf8') : null);

/** Temp file + rename, so an agent starting meanwhile never reads half a config. */
function writeAtomically(path, text, mode) {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.memory-bank-tmp-${process.pid}`;
  writeFileSync(temp, text, mode === undefined ? undefined : { mode });
  if (mode !== undefined) chmodSync(temp, mode);
  renameSync(temp, path);
}

function parseJson(path, text) {
  if (text === null || text.trim() === '') return {};
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InstallRefusal(`${path} is not plain JSON (comments or trailing commas?); it was left as it is`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InstallRefusal(`${path} does not hold a JSON object; it was left as it is`);
  return value;
}

/** JSON as the file was written: its indentation and its final newline (two spaces and a newline for a new file). */
function formatLike(value, original) {
  const indent = original?.match(/^([ \t]+)"/m)?.[1] ?? '  ';
  const newline = original === null || original === '' || original.endsWith('\n');
  return JSON.stringify(value, null, indent) + (newline ? '\n' : '');
}

function installJson(target) {
  const before = readOrNull(target.path);
  const config = parseJson(target.path, before);
  const next = target.add(structuredClone(config));
  if (before !== null && isDeepStrictEqual(next, config)) return 'unchanged';
  if (before !== null && !target.contains(config)) writeFileSync(target.path + BACKUP_SUFFIX, before);
  writeAtomically(target.path, formatLike(next, before));
  return before === null ? 'created' : 'updated';
}

function uninstallJson(target) {
  const current = readOrNull(target.path);
  if (current === null) return 'absent';
  const config = parseJson(target.path, current);
  if (!target.contains(config)) return 'absent';
  const next = target.remove(structuredClone(config));
  const backup = readOrNull(target.path + BACKUP_SUFFIX);
  if (backup !== null) {
    let original;
    try {
      original = target.remove(parseJson(target.path, backup));
    } catch {
      original = undefined;
    }
    if (isDeepStrictEqual(original, next)) {
      writeAtomically(target.path, backup);
      return 'restored';
    }
  } else if (target.isEmpty(next)) {
    rmSync(target.path);
    return 'removed';
  }
  writeAtomically(target.path, formatLike(next, current));
  return 'updated';
}

const blockStart = (target) => `# >>> ${target.marker}`;
const blockEnd = (target) => `# <<< ${target.marker}`;

/** [start, end) of our block in text, the newline that ends it included, or null. */
function findBlock(target, text) {
  const start = text.indexOf(blockStart(target));
  if (start === -1) return null;
  const endMarker = text.indexOf(blockEnd(target), start);
  if (endMarker === -1) throw new InstallRefusal(`${target.path} has the start of Memory Bank's block but not its end; fix it by hand`);
  let end = endMarker + blockEnd(target).length;
  if (text[end] === '\n') end += 1;
  return [start, end];
}

function installBlock(target) {
  const before = readOrNull(target.path);
  const text = before ?? '';
  const conflict = target.conflict?.(text);
  if (conflict) throw new InstallRefusal(`${target.path}: ${conflict}; it was left as it is`);
  const block = `${blockStart(target)}\n${target.body}${blockEnd(target)}\n`;
  const found = findBlock(target, text);
  let next;
  if (found) {
    if (text.slice(found[0], found[1]) === block) return 'unchanged';
    next = text.slice(0, found[0]) + block + text.slice(found[1]);
  } else {
    if (before !== null) writeFileSync(target.path + BACKUP_SUFFIX, before);
    const separator = text === '' ? '' : text.endsWith('\n') ? '\n' : '\n\n';
    next = text + separator + block;
  }
  writeAtomically(target.path, next);
  return before === null ? 'created' : 'updated';
}

function uninstallBlock(target) {
  const current = readOrNull(target.path);
  if (current === null) return 'absent';
  const found = findBlock(target, current);
  if (!found) return 'absent';
  // The block and the blank line put before it.
  const rest = current.slice(0, found[0]).replace(/\n\n$/, '\n') + current.slice(found[1]);
  const backup = readOrNull(target.path + BACKUP_SUFFIX);
  if (backup !== null && rest.replace(/\n+$/, '') === backup.replace(/\n+$/, '')) {
    writeAtomically(target.path, backup);
    return 'restored';
  }
  if (backup === null && rest.trim() === '') {
    rmSync(target.path);
    return 'removed';
  }
  writeAtomically(target.path, rest);
  return 'updated';
}

function installOwned(target) {
  const before = readOrNull(target.path);
  if (before === target.content) return 'unchanged';
  if (before !== null && !before.includes(target.marker)) return 'kept';
  writeAtomically(target.path, target.content, target.mode);
  return before === null ? 'created' : 'updated';
}

function uninstallOwned(target) {
  const current = readOrNull(target.path);
  if (current === null || !current.includes(target.marker)) return 'absent';
  rmSync(target.path);
  return 'removed';
}

const KINDS = {
  json: { install: installJson, uninstall: uninstallJson },
  block: { install: installBlock, uninstall: uninstallBlock },
  owned: { install: installOwned, uninstall: uninstallOwned },
};

/** Applies one target: 'created' | 'updated' | 'unchanged' | 'kept' (install), 'restored' | 'removed' | 'updated' | 'absent' (uninstall). */
export const applyTarget = (target, uninstall) => KINDS[target.kind][uninstall ? 'uninstall' : 'install'](target);
