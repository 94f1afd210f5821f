import { and, asc, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../client';
import {
  memory,
  memoryContext,
  type Citation,
  type ContextOrigin,
  type MemoryContextRow,
  type MemoryScope,
  type MemorySource,
} from '../schema';
import type { OwnerScope } from '../scope';
import { againstTerms, indexTerms, queryWords, searchTag, type SearchTag } from '../search/terms';

export interface MemoryContextRecord {
  id: string;
  snippet: string;
  citation: Citation | null;
  conversationId: string | null;
  messageId: string | null;
  origin: ContextOrigin;
  createdAt: Date;
}

export interface MemoryRecord {
  id: string;
  orgId: string;
  userId: string;
  scope: MemoryScope;
  source: MemorySource;
  content: string;
  tags: string[];
  createdAt: Date;
  updatedAt: Date;
  contexts: MemoryContextRecord[];
}

export interface ScoredMemoryRecord extends MemoryRecord {
  score: number;
}

export interface NewMemory {
  id: string;
  scope: MemoryScope;
  source: MemorySource;
  content: string;
  tags: string[];
  createdAt: Date;
  contexts: MemoryContextRecord[];
}

// Every column but search_terms, which is large and only for the index.
const memoryColumns = {
  id: memory.id,
  orgId: memory.orgId,
  userId: memory.userId,
  scope: memory.scope,
  source: memory.source,
  content: memory.content,
  tags: memory.tags,
  createdAt: memory.createdAt,
  updatedAt: memory.updatedAt,
};
type MemoryColumns = Omit<MemoryRecord, 'contexts'>;

/** The search tag whose posting lists hold a memory's terms. */
function ownerTagOf(row: { scope: MemoryScope; orgId: string; userId: string }): SearchTag {
  return row.scope === 'org' ? searchTag('o', row.orgId) : searchTag('u', row.userId);
}

/** The memories a scope may see. */
function visibleTo(scope: OwnerScope): SQL {
  return and(eq(memory.orgId, scope.orgId), eq(memory.userId, scope.userId), eq(memory.scope, 'user')) as SQL;
}

/** The search tags whose rows a scope may see (must agree with visibleTo). */
function visibleTags(scope: OwnerScope): SearchTag[] {
  return [searchTag('u', scope.userId)];
}

function hasTag(tag: string | undefined): SQL | undefined {
  return tag === undefined ? undefined : sql`JSON_CONTAINS(${memory.tags}, JSON_QUOTE(${tag}))`;
}

/** Loads the contexts of memories already read under `scope`. */
async function attachContexts<T extends MemoryColumns>(
  ex: Executor,
  scope: OwnerScope,
  rows: T[],
): Promise<(T & { contexts: MemoryContextRecord[] })[]> {
  if (rows.length === 0) return [];
  const contextRows: MemoryContextRow[] = await ex
    .select()
    .from(memoryContext)
    .where(
      and(
        eq(memoryContext.orgId, scope.orgId),
        inArray(
          memoryContext.memoryId,
          rows.map((row) => row.id),
        ),
      ),
    )
    .orderBy(asc(memoryContext.memoryId), asc(memoryContext.id));
  const byMemory = new Map<string, MemoryContextRecord[]>();
  for (const { memoryId, orgId: _orgId, ...context } of contextRows) {
    const list = byMemory.get(memoryId) ?? [];
    list.push(context);
    byMemory.set(memoryId, list);
  }
  return rows.map((row) => ({ ...row, contexts: byMemory.get(row.id) ?? [] }));
}

/** Saves a memory and its contexts, owned by `scope`'s user (call inside a transaction). */
export async function insertMemory(ex: Executor, scope: OwnerScope, input: NewMemory): Promise<MemoryRecord> {
  const owner = { orgId: scope.orgId, userId: scope.userId, scope: input.scope };
  await ex.insert(memory).values({
    id: input.id,
    ...owner,
    source: input.source,
    content: input.content,
    tags: input.tags,
    searchTerms: indexTerms(ownerTagOf(owner), input.content),
    createdAt: input.createdAt,
    updatedAt: input.createdAt,
  });
  if (input.contexts.length > 0) {
    await ex
      .insert(memoryContext)
      .values(input.contexts.map((context) => ({ ...context, memoryId: input.id, orgId: scope.orgId })));
  }
  return { ...owner, id: input.id, source: input.source, content: input.content, tags: input.tags, createdAt: input.createdAt, updatedAt: input.createdAt, contexts: input.contexts };
}

export async function findMemory(ex: Executor, scope: OwnerScope, id: string): Promise<MemoryRecord | null> {
  const rows = await ex
    .select(memoryColumns)
    .from(memory)
    .where(and(eq(memory.id, id), visibleTo(scope)));
  const [found] = await attachContexts(ex, scope, rows);
  return found ?? null;
}

export interface MemoryPage {
  memories: MemoryRecord[];
  /** Id of the last memory returned when more follow. */
  lastId: string | null;
}

/** Newest first; `beforeId` continues after the last memory of the previous page. */
export async function listMemories(
  ex: Executor,
  scope: OwnerScope,
  options: { limit: number; beforeId?: string; tag?: string },
): Promise<MemoryPage> {
  const rows = await ex
    .select(memoryColumns)
    .from(memory)
    .where(
      and(
        visibleTo(scope),
        options.beforeId === undefined ? undefined : lt(memory.id, options.beforeId),
        hasTag(options.tag),
      ),
    )
    .orderBy(desc(memory.id))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const memories = await attachContexts(ex, scope, page);
  return { memories, lastId: rows.length > options.limit ? (page.at(-1)?.id ?? null) : null };
}

/**
 * FULLTEXT search (natural-language mode) over the owner-prefixed terms: best score
 * first, newest first among equal scores.
 */
export async function searchMemories(
  ex: Executor,
  scope: OwnerScope,
  options: { query: string; limit: number; tag?: string },
): Promise<ScoredMemoryRecord[]> {
  const words = queryWords(options.query);
  if (words.length === 0) return [];
  const match = sql<number>`MATCH(${memory.searchTerms}) AGAINST(${againstTerms(visibleTags(scope), words)} IN NATURAL LANGUAGE MODE)`;
  const rows = await ex
    .select({ ...memoryColumns, score: match.as('score') })
    .from(memory)
    .where(and(match, visibleTo(scope), hasTag(options.tag)))
    .orderBy(desc(sql`score`), desc(memory.id))
    .limit(options.limit);
  const scored = rows.map((row) => ({ ...row, score: Number(row.score) }));
  return attachContexts(ex, scope, scored);
}

/**
 * Changes content and/or tags; the search terms follow the content in the same
 * statement, so search sees the change at commit. Returns null when `scope` cannot
 * see the memory.
 */
export async function updateMemory(
  ex: Executor,
  scope: OwnerScope,
  id: string,
  change: { content?: string; tags?: string[]; updatedAt: Date },
): Promise<MemoryRecord | null> {
  const [current] = await ex
    .select(memoryColumns)
    .from(memory)
    .where(and(eq(memory.id, id), visibleTo(scope)))
    .for('update');
  if (!current) return null;
  const content = change.content ?? current.content;
  const tags = change.tags ?? current.tags;
  await ex
    .update(memory)
    .set({
      content,
      tags,
      updatedAt: change.updatedAt,
      ...(change.content === undefined ? {} : { searchTerms: indexTerms(ownerTagOf(current), content) }),
    })
    .where(and(eq(memory.id, id), visibleTo(scope)));
  const [updated] = await attachContexts(ex, scope, [{ ...current, content, tags, updatedAt: change.updatedAt }]);
  return updated ?? null;
}

/** Deletes a memory; its contexts go with it (FK cascade). False when not visible. */
export async function deleteMemory(ex: Executor, scope: OwnerScope, id: string): Promise<boolean> {
  const [result] = await ex.delete(memory).where(and(eq(memory.id, id), visibleTo(scope)));
  return result.affectedRows > 0;
}
