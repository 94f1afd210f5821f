import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/** Prefixes of our public ids. */
export const ID_PREFIXES = {
  org: 'org',
  user: 'usr',
  apiKey: 'key',
  memory: 'mem',
  memoryContext: 'mctx',
  workstream: 'ws',
  auditEvent: 'aud',
  oauthKey: 'oak',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

/**
 * ulid's default generator asks the OS for one random byte per character (16 per id);
 * this one hands them out of a buffer filled 4 KiB at a time. b/256 maps a byte onto
 * the 32 characters evenly.
 */
const randomBytes = new Uint8Array(4096);
let nextByte = randomBytes.length;
function pooledRandom(): number {
  if (nextByte === randomBytes.length) {
    randomFillSync(randomBytes);
    nextByte = 0;
  }
  return randomBytes[nextByte++]! / 256;
}

const nextUlid = monotonicFactory(pooledRandom);

/**
 * A new id such as `mem_01JD3W…`: prefix + ULID. ULIDs sort by creation time, so
 * ordering by id is ordering by age (the list cursor relies on it).
 */
export function newId(kind: IdKind, at: Date = new Date()): string {
  return `${ID_PREFIXES[kind]}_${nextUlid(at.getTime())}`;
}

const ULID_BODY = '[0-9A-HJKMNP-TV-Z]{26}';
const patterns = Object.fromEntries(
  Object.entries(ID_PREFIXES).map(([kind, prefix]) => [kind, new RegExp(`^${prefix}_${ULID_BODY}$`)]),
) as Record<IdKind, RegExp>;

/** True when `value` is a well-formed id of this kind (malformed ids never reach SQL). */
export function isId(kind: IdKind, value: string): boolean {
  return patterns[kind].test(value);
}
