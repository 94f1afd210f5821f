import { createHash } from 'node:crypto';
import type { MemoryRecord } from '@memory-bank/db';
import { AppError } from '../errors';

/**
 * Entity tags and If-Match (RFC 9110 §8.8.3, §13.1.1). Our tags are strong: a memory's
 * changes with any change to what its representation says (content, tags, scope, the
 * update time). If-Match compares strongly, so a weak tag (`W/"…"`) never matches.
 */

/** A strong entity tag over `parts` (quoted, as the ETag header carries it). */
function strongTag(parts: readonly string[]): string {
  return `"${createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 27)}"`;
}

/** The ETag of a memory. Contexts are fixed at creation, so the id stands for them. */
export function memoryEtag(memory: Pick<MemoryRecord, 'id' | 'scope' | 'content' | 'tags' | 'updatedAt'>): string {
  return strongTag([memory.id, memory.scope, memory.content, JSON.stringify(memory.tags), memory.updatedAt]);
}

/** The entity tags an If-Match header lists (`*` alone is the wildcard). */
function listedTags(header: string): string[] {
  return header.match(/(?:W\/)?"[\x21\x23-\x7e\x80-\xff]*"/g) ?? [];
}

/**
 * Throws 412 unless `ifMatch` (the header, when sent) admits the resource as it is now:
 * `current` is its tag, or null when the caller may act on it without seeing it (an admin
 * deleting a member's private memory), which only `*` matches. Called once the resource is
 * known to exist (a missing one is a 404 first).
 */
export function requireIfMatch(ifMatch: string | undefined, current: string | null): void {
  if (ifMatch === undefined || ifMatch.trim() === '*') return;
  if (current !== null && listedTags(ifMatch).includes(current)) return;
  throw new AppError('precondition_failed', 'If-Match does not name the current version of this resource; read it again (ETag) and retry');
}
