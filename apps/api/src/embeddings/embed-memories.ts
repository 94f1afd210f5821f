import { embeddableLanguage, writeMemoryVectors, type Database, type MemoryToEmbed, type MemoryVectorWrite, type OrgScope } from '@memory-bank/db';
import { toInt8 } from './int8';
import type { EmbeddingProvider } from './embedding-provider';

export interface EmbeddedBatch {
  /** Vectors stored. */
  embedded: number;
  /** Memories the model does not serve (their language): stored as NULL, so nothing asks again. */
  notServed: number;
  /** Memories whose text changed or that were deleted while they were embedded: nothing stored. */
  changed: number;
}

/**
 * Embeds memories of one org and stores their vectors, each guarded by the content key it
 * was computed from (writeMemoryVectors). Throws when the provider fails: nothing of the
 * batch is stored then, and the sweep finds the memories again.
 */
export async function embedMemories(db: Database, provider: EmbeddingProvider, org: OrgScope, memories: readonly MemoryToEmbed[]): Promise<EmbeddedBatch> {
  if (memories.length === 0) return { embedded: 0, notServed: 0, changed: 0 };
  const served = memories.filter((memory) => provider.serves(embeddableLanguage(memory.content)));
  const vectors = await provider.embed(served.map((memory) => memory.content));
  const byId = new Map(served.map((memory, i) => [memory.id, toInt8(vectors[i]!)]));
  const writes: MemoryVectorWrite[] = memories.map((memory) => ({ memoryId: memory.id, contentKey: memory.contentKey, vector: byId.get(memory.id) ?? null }));
  const written = await writeMemoryVectors(db, org, provider.model, writes);
  const landed = writes.filter((write) => written.has(write.memoryId));
  const notServed = landed.filter((write) => write.vector === null).length;
  return { embedded: landed.length - notServed, notServed, changed: writes.length - landed.length };
}
