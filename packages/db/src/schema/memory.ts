import { boolean, char, index, int, mediumtext, mysqlEnum, mysqlTable, smallint, text, tinyint, uniqueIndex, varchar } from 'drizzle-orm/mysql-core';
import { idColumn, jsonColumn, timestamp } from './columns';
import { orgIdColumn, userIdColumn } from './orgs';

export const MEMORY_SCOPES = ['user', 'org'] as const;
export type MemoryScope = (typeof MEMORY_SCOPES)[number];

export const MEMORY_SOURCES = ['api', 'mcp', 'hook'] as const;
export type MemorySource = (typeof MEMORY_SOURCES)[number];

export const CONTEXT_ORIGINS = ['active_conversation', 'searched_conversation'] as const;
export type ContextOrigin = (typeof CONTEXT_ORIGINS)[number];

export type Citation = Record<string, unknown>;

/** Indexes that reads name in hints (FORCE INDEX), so a plan cannot flip with the statistics. */
export const MEMORY_INDEXES = {
  /** One member's memories, newest last: (org_id, user_id, id). */
  owner: 'memory_owner_id',
  /** The org's memories of one scope, newest last: (org_id, scope, id). */
  orgScope: 'memory_org_scope_id',
  /** One memory's contexts: (memory_id, id). */
  contextsOfMemory: 'memory_context_memory',
  /** Pinned or not, per scope and member: (org_id, pinned, scope, user_id). */
  pinned: 'memory_pinned',
} as const;

export const memory = mysqlTable(
  'memory',
  {
    id: idColumn('id').primaryKey(),
    orgId: orgIdColumn(),
    userId: userIdColumn(),
    scope: mysqlEnum('scope', MEMORY_SCOPES).notNull(),
    content: text('content').notNull(),
    source: mysqlEnum('source', MEMORY_SOURCES).notNull(),
    tags: jsonColumn<string[]>('tags').notNull(),
    /**
     * The content's tokens, each prefixed with the owner's search tag, so that the
     * FULLTEXT index's posting lists are per owner (see docs/architecture.md#search).
     * FULLTEXT indexes live in drizzle/0002_fulltext.sql.
     */
    searchTerms: mediumtext('search_terms').notNull(),
    /**
     * The format search_terms was written in (SEARCH_TERMS_VERSION in search/memory-terms.ts);
     * older rows are re-indexed in the background and counted in the owner's statistics then.
     */
    searchVersion: tinyint('search_version', { unsigned: true }).notNull().default(0),
    /** Contexts come with a save (and with later equal saves, duplicates): readers skip the contexts query when there are none. */
    contextCount: smallint('context_count', { unsigned: true }).notNull().default(0),
    /**
     * For a memory saved by an import: SHA-256 (hex) of the normalised save its line asked
     * for, unique per owner, so importing a file again skips what it already saved, however
     * late. NULL for every other save (equal text may be saved twice on purpose); NULLs never
     * collide in a UNIQUE index.
     */
    importKey: char('import_key', { length: 64 }),
    /**
     * SHA-256 (hex) of the normalised content (NFC, case folded, whitespace collapsed:
     * memory-dedupe.ts), by which a save finds an equal live memory of its owner. NULL only
     * for memories saved before it existed, until the start-up backfill reaches them.
     */
    contentKey: char('content_key', { length: 64 }),
    /** The memory that replaced this one (POST with `supersedes`); NULL while it is current. */
    supersededBy: idColumn('superseded_by'),
    /** When it stops being read and is deleted by the maintenance loop; NULL: never. */
    expiresAt: timestamp('expires_at'),
    /** Pinned memories come first at session start and are kept by retention. */
    pinned: boolean('pinned').notNull().default(false),
    /** How often an agent was given it (recall, or read over MCP), and when last. */
    useCount: int('use_count', { unsigned: true }).notNull().default(0),
    lastUsedAt: timestamp('last_used_at'),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (t) => [
    index(MEMORY_INDEXES.owner).on(t.orgId, t.userId, t.id),
    index(MEMORY_INDEXES.orgScope).on(t.orgId, t.scope, t.id),
    uniqueIndex('memory_import_key').on(t.orgId, t.userId, t.importKey),
    index('memory_content_key').on(t.orgId, t.contentKey),
    // The memories a memory replaced (history, deleting a chain).
    index('memory_superseded_by').on(t.orgId, t.supersededBy),
    // What is due: expired memories, for the maintenance loop.
    index('memory_expiry').on(t.expiresAt),
    // Retention: an org's memories by last change.
    index('memory_org_updated').on(t.orgId, t.updatedAt),
    // An owner's pinned memories (recall at session start), without reading the unpinned ones.
    index(MEMORY_INDEXES.pinned).on(t.orgId, t.pinned, t.scope, t.userId),
  ],
);

export const memoryContext = mysqlTable(
  'memory_context',
  {
    id: idColumn('id').primaryKey(),
    memoryId: idColumn('memory_id')
      .notNull()
      .references(() => memory.id, { onDelete: 'cascade' }),
    orgId: idColumn('org_id').notNull(),
    snippet: text('snippet').notNull(),
    citation: jsonColumn<Citation | null>('citation'),
    conversationId: varchar('conversation_id', { length: 128 }),
    messageId: varchar('message_id', { length: 128 }),
    origin: mysqlEnum('origin', CONTEXT_ORIGINS).notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [index(MEMORY_INDEXES.contextsOfMemory).on(t.memoryId, t.id), index('memory_context_org').on(t.orgId)],
);

export type MemoryRow = typeof memory.$inferSelect;
export type MemoryContextRow = typeof memoryContext.$inferSelect;
