import { and, asc, count, eq, gt, gte, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../driver';
import { MEMORY_INDEXES, MEMORY_VECTOR_INDEXES, memory, memoryVectors, type MemoryScope } from '../schema';
import type { OrgScope, OwnerScope } from '../scope';

/*
 * The memories' sentence embeddings (schema/memory-vectors.ts): what the embedding pipeline
 * reads to embed and writes back, and what the semantic index loads per owner. A vector is
 * current when its model is the configured one and its content key is the memory's.
 */

/** A memory's text as the embedding pipeline reads it. */
export interface MemoryToEmbed {
  id: string;
  contentKey: string;
  content: string;
}

/** A vector to store for a memory: int8 bytes, or null when the model does not serve its text. */
export interface MemoryVectorWrite {
  memoryId: string;
  /** The content key of the text that was embedded. */
  contentKey: string;
  vector: Int8Array | Uint8Array | null;
}

/** A stored vector as the semantic index loads it. */
export interface StoredMemoryVector {
  memoryId: string;
  vector: Buffer;
  /** The database's UTC time when it was written, as its text (`2026-12-06 08:00:00.000`). */
  embeddedAt: string;
}

const toEmbed = { id: memory.id, contentKey: sql<string>`${memory.contentKey}`, content: memory.content };

/** The vector of `model` that is current for the memory row it is joined to. */
function currentVector(model: string) {
  return and(eq(memoryVectors.orgId, memory.orgId), eq(memoryVectors.memoryId, memory.id), eq(memoryVectors.model, model), eq(memoryVectors.contentKey, memory.contentKey));
}

/** The org's memories among `ids` that have no current vector of `model`, with their text (memories not yet keyed are left out). */
export async function memoriesToEmbed(ex: Executor, org: OrgScope, model: string, ids: readonly string[]): Promise<MemoryToEmbed[]> {
  if (ids.length === 0) return [];
  return ex
    .select(toEmbed)
    .from(memory)
    .leftJoin(memoryVectors, currentVector(model))
    .where(and(eq(memory.orgId, org.orgId), inArray(memory.id, [...ids]), isNotNull(memory.contentKey), isNull(memoryVectors.memoryId)));
}

/**
 * Up to `limit` of the org's memories of one scope after `afterId` (id order) that have no
 * current vector of `model`. Read along the org's (org_id, scope, id) index: a range of this
 * org's rows only, where the primary key's id order would walk every org's rows after the
 * cursor.
 */
export async function memoriesWithoutVector(
  ex: Executor,
  org: OrgScope,
  model: string,
  options: { scope: MemoryScope; afterId: string; limit: number },
): Promise<MemoryToEmbed[]> {
  return ex
    .select(toEmbed)
    .from(memory, { forceIndex: MEMORY_INDEXES.orgScope })
    .leftJoin(memoryVectors, currentVector(model))
    .where(and(eq(memory.orgId, org.orgId), eq(memory.scope, options.scope), gt(memory.id, options.afterId), isNotNull(memory.contentKey), isNull(memoryVectors.memoryId)))
    .orderBy(asc(memory.id))
    .limit(options.limit);
}

/** How many of the org's memories have no current vector of `model` (doctor, metrics); `updatedBefore`: only those last written before then. */
export async function countMemoriesWithoutVector(ex: Executor, org: OrgScope, model: string, updatedBefore?: Date): Promise<number> {
  const [row] = await ex
    .select({ n: count() })
    .from(memory)
    .leftJoin(memoryVectors, currentVector(model))
    .where(and(eq(memory.orgId, org.orgId), isNull(memoryVectors.memoryId), updatedBefore === undefined ? undefined : lt(memory.updatedAt, updatedBefore)));
  return row?.n ?? 0;
}

/**
 * Stores vectors of the org's memories, each only while the memory still has the content key
 * it was embedded from (INSERT … SELECT from the memory row): a vector computed before a
 * change of the text, or of a memory deleted meanwhile, lands nowhere. Replaces the memory's
 * earlier vector (another model's, or older text's). `embedded_at` is the database's clock,
 * one clock for every replica (the index loads what changed since a time). The ids that landed.
 */
export async function writeMemoryVectors(ex: Executor, org: OrgScope, model: string, vectors: readonly MemoryVectorWrite[]): Promise<Set<string>> {
  const written = new Set<string>();
  for (const write of vectors) {
    const vector = write.vector === null ? null : Buffer.from(write.vector.buffer, write.vector.byteOffset, write.vector.byteLength);
    const [result] = await ex.execute(
      sql`INSERT INTO ${memoryVectors} (${sql.identifier('org_id')}, ${sql.identifier('memory_id')}, ${sql.identifier('owner_id')}, ${sql.identifier('model')}, ${sql.identifier('content_key')}, ${sql.identifier('vector')}, ${sql.identifier('embedded_at')}) SELECT ${memory.orgId}, ${memory.id}, CASE WHEN ${memory.scope} = 'org' THEN ${memory.orgId} ELSE ${memory.userId} END, ${model}, ${memory.contentKey}, ${vector}, UTC_TIMESTAMP(3) FROM ${memory} WHERE ${memory.orgId} = ${org.orgId} AND ${memory.id} = ${write.memoryId} AND ${memory.contentKey} = ${write.contentKey} ON DUPLICATE KEY UPDATE ${sql.identifier('owner_id')} = VALUES(${sql.identifier('owner_id')}), ${sql.identifier('model')} = VALUES(${sql.identifier('model')}), ${sql.identifier('content_key')} = VALUES(${sql.identifier('content_key')}), ${sql.identifier('vector')} = VALUES(${sql.identifier('vector')}), ${sql.identifier('embedded_at')} = VALUES(${sql.identifier('embedded_at')})`,
    );
    // ON DUPLICATE KEY UPDATE counts a replaced row twice.
    if (result.affectedRows > 0) written.add(write.memoryId);
  }
  return written;
}

/** Deletes a memory's vector (its text changes in the same transaction: the old vector must not answer for the new text). */
export async function deleteMemoryVector(ex: Executor, org: OrgScope, memoryId: string): Promise<void> {
  await ex.delete(memoryVectors).where(and(eq(memoryVectors.orgId, org.orgId), eq(memoryVectors.memoryId, memoryId)));
}

/**
 * The vectors of `model` that answer for one owner's memories — the scope's user's private
 * ones (`user`) or its org's shared ones (`org`) — written at or after `since` when given
 * (a delta load), of memories whose text has not changed since. Memories the model does not
 * serve (NULL vectors) are left out.
 */
export async function ownerMemoryVectors(ex: Executor, scope: OwnerScope, which: 'user' | 'org', model: string, since?: string): Promise<StoredMemoryVector[]> {
  const ownerId = which === 'user' ? scope.userId : scope.orgId;
  return ex
    .select({
      memoryId: memoryVectors.memoryId,
      vector: sql<Buffer>`${memoryVectors.vector}`,
      embeddedAt: sql<string>`DATE_FORMAT(${memoryVectors.embeddedAt}, '%Y-%m-%d %H:%i:%s.%f')`,
    })
    .from(memoryVectors, { forceIndex: MEMORY_VECTOR_INDEXES.ownerModel })
    .innerJoin(memory, and(eq(memory.orgId, memoryVectors.orgId), eq(memory.id, memoryVectors.memoryId), eq(memory.contentKey, memoryVectors.contentKey)))
    .where(
      and(
        eq(memoryVectors.orgId, scope.orgId),
        eq(memoryVectors.ownerId, ownerId),
        eq(memoryVectors.model, model),
        isNotNull(memoryVectors.vector),
        since === undefined ? undefined : gte(memoryVectors.embeddedAt, sql`${since}`),
        // The owner's memories only, as search scopes them (visibleTo).
        which === 'user' ? and(eq(memory.userId, scope.userId), eq(memory.scope, 'user')) : eq(memory.scope, 'org'),
      ),
    );
}
