import { char, index, mysqlTable, primaryKey, varbinary, varchar } from 'drizzle-orm/mysql-core';
import { idColumn, timestamp } from './columns';
import { memory } from './memory';

/** The longest vector a row holds: int8, one byte a dimension (EMBEDDINGS_DIMENSIONS is capped to it). */
export const MEMORY_VECTOR_MAX_BYTES = 4096;

/** Indexes that reads name in hints. */
export const MEMORY_VECTOR_INDEXES = {
  /** One owner's vectors of one model, by when they were written (full and delta loads): (org_id, owner_id, model, embedded_at). */
  ownerModel: 'memory_vectors_owner_model',
} as const;

/**
 * A memory's sentence embedding (apps/api/src/embeddings, docs/architecture.md#embeddings):
 * one row per memory, written after its save commits. `content_key` is the memory's content
 * key when its text was embedded, so a vector of older text is never taken for the current
 * one; `model` names the model that made it (`local:use-lite-512`, `openai:<model>:<dims>`),
 * so changing the model re-embeds in the background. `vector` is the unit vector scaled by
 * 127 as int8, or NULL when the model does not serve the text's language (the backfill then
 * leaves it alone). Deleted with its memory on every path (FOREIGN KEY … ON DELETE CASCADE).
 */
export const memoryVectors = mysqlTable(
  'memory_vectors',
  {
    orgId: idColumn('org_id').notNull(),
    memoryId: idColumn('memory_id')
      .notNull()
      .references(() => memory.id, { onDelete: 'cascade' }),
    /** Whose search it serves: the user for a private memory, the org for a shared one (statsOwnerOf). */
    ownerId: idColumn('owner_id').notNull(),
    model: varchar('model', { length: 128 }).notNull(),
    contentKey: char('content_key', { length: 64 }).notNull(),
    vector: varbinary('vector', { length: MEMORY_VECTOR_MAX_BYTES }),
    embeddedAt: timestamp('embedded_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'memory_vectors_memory_pk', columns: [t.orgId, t.memoryId] }),
    // The foreign key's own index (InnoDB needs memory_id first).
    index('memory_vectors_memory').on(t.memoryId),
    index(MEMORY_VECTOR_INDEXES.ownerModel).on(t.orgId, t.ownerId, t.model, t.embeddedAt),
  ],
);

export type MemoryVectorRow = typeof memoryVectors.$inferSelect;
