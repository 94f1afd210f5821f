import {
  deleteMemory,
  findMemory,
  insertMemory,
  isId,
  listMemories,
  newId,
  searchMemories,
  updateMemory,
  type Citation,
  type ContextOrigin,
  type MemoryRecord,
  type MemorySource,
  type ScoredMemoryRecord,
} from '@memory-bank/db';
import { ownerScope, type Principal } from '../auth/principal';
import { AppError, notFound } from '../errors';
import type { ServiceDeps } from './deps';

export interface NewContextInput {
  snippet: string;
  citation?: Citation | null;
  conversation_id?: string | null;
  message_id?: string | null;
  origin?: ContextOrigin;
}

export interface NewMemoryInput {
  content: string;
  tags?: string[];
  contexts?: NewContextInput[];
}

export interface MemoryChange {
  content?: string;
  tags?: string[];
}

export interface MemoryListPage {
  memories: MemoryRecord[];
  nextCursor: string | null;
}

export type MemoryService = ReturnType<typeof createMemoryService>;

// The list cursor is opaque to clients: base64url of a small versioned JSON.
function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ v: 1, before: lastId })).toString('base64url');
}

function decodeCursor(cursor: string): string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const before = (parsed as { v?: unknown; before?: unknown }).before;
    if ((parsed as { v?: unknown }).v === 1 && typeof before === 'string' && isId('memory', before)) return before;
  } catch {
    // fall through: a cursor we did not issue
  }
  throw new AppError('validation_failed', 'cursor is not a cursor this API returned', {
    errors: [{ path: 'cursor', message: 'Invalid cursor' }],
  });
}

/** Tags are trimmed and de-duplicated, first occurrence first. */
function normaliseTags(tags: string[] | undefined): string[] {
  return [...new Set((tags ?? []).map((tag) => tag.trim()))];
}

export function createMemoryService({ db, clock }: ServiceDeps) {
  return {
    /** Saves a memory and its contexts in one transaction. The server decides scope and source. */
    create(principal: Principal, input: NewMemoryInput, source: MemorySource): Promise<MemoryRecord> {
      const now = clock.now();
      return db.transaction((tx) =>
        insertMemory(tx, ownerScope(principal), {
          id: newId('memory', now),
          scope: 'user',
          source,
          content: input.content.trim(),
          tags: normaliseTags(input.tags),
          createdAt: now,
          contexts: (input.contexts ?? []).map((context) => ({
            id: newId('memoryContext', now),
            snippet: context.snippet.trim(),
            citation: context.citation ?? null,
            conversationId: context.conversation_id ?? null,
            messageId: context.message_id ?? null,
            origin: context.origin ?? 'active_conversation',
            createdAt: now,
          })),
        }),
      );
    },

    async get(principal: Principal, id: string): Promise<MemoryRecord> {
      const found = isId('memory', id) ? await findMemory(db, ownerScope(principal), id) : null;
      if (!found) throw notFound('Memory');
      return found;
    },

    async list(principal: Principal, options: { limit: number; cursor?: string; tag?: string }): Promise<MemoryListPage> {
      const page = await listMemories(db, ownerScope(principal), {
        limit: options.limit,
        beforeId: options.cursor === undefined ? undefined : decodeCursor(options.cursor),
        tag: options.tag?.trim(),
      });
      return { memories: page.memories, nextCursor: page.lastId === null ? null : encodeCursor(page.lastId) };
    },

    search(principal: Principal, options: { query: string; limit: number; tag?: string }): Promise<ScoredMemoryRecord[]> {
      return searchMemories(db, ownerScope(principal), { ...options, tag: options.tag?.trim() });
    },

    async update(principal: Principal, id: string, change: MemoryChange): Promise<MemoryRecord> {
      const updated = isId('memory', id)
        ? await db.transaction((tx) =>
            updateMemory(tx, ownerScope(principal), id, {
              content: change.content?.trim(),
              tags: change.tags === undefined ? undefined : normaliseTags(change.tags),
              updatedAt: clock.now(),
            }),
          )
        : null;
      if (!updated) throw notFound('Memory');
      return updated;
    },

    async remove(principal: Principal, id: string): Promise<void> {
      const deleted = isId('memory', id) && (await deleteMemory(db, ownerScope(principal), id));
      if (!deleted) throw notFound('Memory');
    },
  };
}
