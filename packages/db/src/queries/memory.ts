import { and, asc, count, desc, eq, gt, inArray, isNull, lt, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { union, type AnyMySqlColumn } from 'drizzle-orm/mysql-core';
import type { Executor } from '../driver';
import {
  MEMORY_INDEXES,
  memory,
  memoryContext,
  memoryTermStats,
  orgs,
  type Citation,
  type ContextOrigin,
  type MemoryScope,
  type MemorySource,
} from '../schema';
import { padded, placeholderValue, preparedOn } from '../driver';
import type { OrgScope, OwnerScope } from '../scope';
import { searchTag, type SearchTag } from '../search/terms';
import { SEARCH_TERMS_VERSION, memorySearchTerms } from '../search/memory-terms';
import { contentKeyOf } from '../content-key';
import { booleanAgainst, holdsToken, parseSearchQuery, termTokens } from '../search/query';
import { commonWords, mostDistinctive } from '../search/selectivity';
import { highlightsOf, rankCandidates, statsTermsOf, type SearchMatch } from '../search/rank';
import { applyStatsDelta, deleteOwnerStats, ownersStatsColumn, ownersStatsFrom, ownersVocabulary, statsDeltaOf, statsTermsFor, type OwnerStatsDelta } from '../search/stats';
import { chooseCorrections, correctableWords, correctedQueryText, correctionsOf, vocabularyRanges, withCorrections } from '../search/corrections';
import type { SpellingDictionary } from '../search/spelling';
import { fuseRankings, type SemanticHit } from '../search/fusion';

/**
 * A timestamp as the API answers it: ISO 8601 in UTC with milliseconds
 * (`2026-11-30T12:00:00.000Z`). Reads take it from the driver's text as it comes
 * (isoTimestamp), never through a Date.
 */
export type IsoTimestamp = string;

export interface MemoryContextRecord {
  id: string;
  snippet: string;
  citation: Citation | null;
  conversationId: string | null;
  messageId: string | null;
  origin: ContextOrigin;
  createdAt: IsoTimestamp;
}

/** A context to save: its creation time as a Date, like every value written. */
export type NewMemoryContext = Omit<MemoryContextRecord, 'createdAt'> & { createdAt: Date };

export interface MemoryRecord {
  id: string;
  orgId: string;
  userId: string;
  scope: MemoryScope;
  source: MemorySource;
  content: string;
  tags: string[];
  /** The memory that replaced this one; null while it is current. */
  supersededBy: string | null;
  /** When it stops being read; null: never. */
  expiresAt: IsoTimestamp | null;
  pinned: boolean;
  /** How often an agent was given it, and when last. */
  useCount: number;
  lastUsedAt: IsoTimestamp | null;
  createdAt: IsoTimestamp;
  updatedAt: IsoTimestamp;
  contexts: MemoryContextRecord[];
}

export interface ScoredMemoryRecord extends MemoryRecord {
  /** 0–1, see search/rank.ts and search/fusion.ts. */
  score: number;
  match: SearchMatch & {
    /** Found by meaning (the semantic ranking placed it), not by its words alone. */
    semantic: boolean;
  };
}

/** What a search found, and the query as it was also searched when some of its words were corrected. */
export interface MemorySearch {
  results: ScoredMemoryRecord[];
  correctedQuery: string | null;
}

export interface NewMemory {
  id: string;
  scope: MemoryScope;
  source: MemorySource;
  content: string;
  /** contentKeyOf(content) (content-key.ts). */
  contentKey: string;
  tags: string[];
  expiresAt: Date | null;
  pinned: boolean;
  createdAt: Date;
  contexts: NewMemoryContext[];
}

/**
 * A DATETIME(3) column read as the API answers it. The driver hands drizzle the server's
 * text (`2026-11-30 12:00:00.000`, the pool's time zone is UTC); two characters make it
 * ISO 8601, where a Date would be parsed only to be formatted back.
 */
function isoTimestamp(column: AnyMySqlColumn): SQL<IsoTimestamp> {
  return sql<IsoTimestamp>`${column}`.mapWith((text: string) => `${text.replace(' ', 'T')}Z`);
}

/** A nullable DATETIME(3) column read like isoTimestamp. */
function isoTimestampOrNull(column: AnyMySqlColumn): SQL<IsoTimestamp | null> {
  return sql<IsoTimestamp | null>`${column}`.mapWith((text: string | null) => (text === null ? null : `${text.replace(' ', 'T')}Z`));
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
  supersededBy: memory.supersededBy,
  expiresAt: isoTimestampOrNull(memory.expiresAt),
  pinned: memory.pinned,
  useCount: memory.useCount,
  lastUsedAt: isoTimestampOrNull(memory.lastUsedAt),
  createdAt: isoTimestamp(memory.createdAt),
  updatedAt: isoTimestamp(memory.updatedAt),
  contextCount: memory.contextCount,
};
type MemoryColumns = Omit<MemoryRecord, 'contexts'> & { contextCount: number };

/**
 * A memory's contexts read in the same statement as the memory (get, list, the locked read):
 * a correlated subquery that concatenates (GROUP_CONCAT's default ',') one JSON array per
 * context, fields in MemoryContextRecord's order, in id order; NULL when it has none
 * (context_count = 0 skips the subquery). It reads the memory's own contexts by
 * memory_context_memory, named in a hint: with the org's index the optimiser may pick
 * instead (its estimate for org_id can be far off), every row would read every context of
 * the org. GROUP_CONCAT rather than JSON_ARRAYAGG: MySQL 8 has no ORDER BY inside
 * JSON_ARRAYAGG; arrays rather than JSON_OBJECT: MySQL 8 reorders object keys. The
 * session's group_concat_max_len is raised at connect (driver/database.ts) above the
 * largest a memory's contexts can be.
 */
const contextsColumn = sql<string | null>`CASE WHEN \`memory\`.\`context_count\` = 0 THEN NULL ELSE (SELECT CONCAT('[', GROUP_CONCAT(JSON_ARRAY(\`memory_context\`.\`id\`, \`memory_context\`.\`snippet\`, \`memory_context\`.\`citation\`, \`memory_context\`.\`conversation_id\`, \`memory_context\`.\`message_id\`, \`memory_context\`.\`origin\`, CONCAT(LEFT(DATE_FORMAT(\`memory_context\`.\`created_at\`, '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z')) ORDER BY \`memory_context\`.\`id\`), ']') FROM \`memory_context\` FORCE INDEX (${sql.raw(MEMORY_INDEXES.contextsOfMemory)}) WHERE \`memory_context\`.\`org_id\` = \`memory\`.\`org_id\` AND \`memory_context\`.\`memory_id\` = \`memory\`.\`id\`) END`;

type ContextTuple = [string, string, Citation | string | null, string | null, string | null, ContextOrigin, string];

/** The contexts column's text as records (citation parsed when the server hands JSON as text, like jsonColumn). */
function contextsFrom(text: string | null): MemoryContextRecord[] {
  if (text === null) return [];
  return (JSON.parse(text) as ContextTuple[]).map(([id, snippet, citation, conversationId, messageId, origin, createdAt]) => ({
    id,
    snippet,
    citation: typeof citation === 'string' ? (JSON.parse(citation) as Citation) : citation,
    conversationId,
    messageId,
    origin,
    createdAt,
  }));
}

/** The memory columns with its contexts. */
const memoryWithContexts = { ...memoryColumns, contexts: contextsColumn };
type MemoryWithContexts = MemoryColumns & { contexts: string | null };

type Owned = { scope: MemoryScope; orgId: string; userId: string };

/** The search tag whose posting lists hold a memory's terms. */
export function ownerTagOf(row: Owned): SearchTag {
  return row.scope === 'org' ? searchTag('o', row.orgId) : searchTag('u', row.userId);
}

/** Whose search statistics a memory counts in: its user's, or its org's when shared. */
export function statsOwnerOf(row: Owned): string {
  return row.scope === 'org' ? row.orgId : row.userId;
}

/** The search columns of a memory's content, and what it adds to its owner's statistics. */
function indexedContent(row: Owned, content: string, into?: OwnerStatsDelta) {
  const terms = memorySearchTerms(ownerTagOf(row), content);
  return { columns: { searchTerms: terms.searchTerms, searchVersion: SEARCH_TERMS_VERSION }, delta: statsDeltaOf(terms.counts, terms.length, 1, into) };
}

/** A new memory's row, owned by `scope`'s user, and what it adds to its owner's statistics (into `into`, when given). */
function memoryRowOf(scope: OwnerScope, input: NewMemory, into?: OwnerStatsDelta) {
  const owner = { orgId: scope.orgId, userId: scope.userId, scope: input.scope };
  const indexed = indexedContent(owner, input.content, into);
  const row = {
    ...owner,
    ...indexed.columns,
    id: input.id,
    source: input.source,
    content: input.content,
    contentKey: input.contentKey,
    tags: input.tags,
    expiresAt: input.expiresAt,
    pinned: input.pinned,
    contextCount: input.contexts.length,
    createdAt: input.createdAt,
    updatedAt: input.createdAt,
  };
  return { owner, row, delta: indexed.delta };
}

/** What removing a memory's content takes from its owner's statistics (nothing if it was never counted). */
function removedContent(version: number, content: string, into?: OwnerStatsDelta): OwnerStatsDelta {
  if (version !== SEARCH_TERMS_VERSION) return into ?? new Map();
  const terms = memorySearchTerms('', content);
  return statsDeltaOf(terms.counts, terms.length, -1, into);
}

/** Which of the memories a member can see: their own, the org's shared ones, or both. */
export type ScopeFilter = 'user' | 'org' | 'all';

type Bindable = string | Placeholder;

/** The owner columns as statement placeholders, filled with the caller's ids at execution. */
const OWNER = { orgId: sql.placeholder('orgId'), userId: sql.placeholder('userId') };

/**
 * The memories a scope may see: its own private ones and its org's shared ones. Nobody —
 * not an admin either — sees another member's private memories.
 */
function visibleTo(owner: { orgId: Bindable; userId: Bindable }, filter: ScopeFilter = 'all'): SQL {
  const own = and(eq(memory.userId, owner.userId), eq(memory.scope, 'user'));
  const shared = eq(memory.scope, 'org');
  const which = filter === 'user' ? own : filter === 'org' ? shared : or(own, shared);
  return and(eq(memory.orgId, owner.orgId), which) as SQL;
}

/**
 * Not expired at `now` (the service's clock, a statement parameter): an expired memory is
 * absent from every read from that moment, until the maintenance loop deletes it.
 */
function unexpired(now: Placeholder | Date): SQL {
  return or(isNull(memory.expiresAt), now instanceof Date ? gt(memory.expiresAt, now) : gt(memory.expiresAt, now)) as SQL;
}

/** What list and search show: unexpired, and current unless superseded ones are asked for. */
function live(now: Placeholder, includeSuperseded: boolean): SQL {
  return and(unexpired(now), includeSuperseded ? undefined : isNull(memory.supersededBy)) as SQL;
}

/** The scopes a filter searches, with their search tags and statistics owners (as the statement's placeholders); must agree with visibleTo. */
function visibleOwners(scope: OwnerScope, filter: ScopeFilter): { which: 'user' | 'org'; tag: SearchTag; id: Placeholder }[] {
  const owners: { which: 'user' | 'org'; tag: SearchTag; id: Placeholder }[] = [];
  if (filter !== 'org') owners.push({ which: 'user', tag: searchTag('u', scope.userId), id: OWNER.userId });
  if (filter !== 'user') owners.push({ which: 'org', tag: searchTag('o', scope.orgId), id: OWNER.orgId });
  return owners;
}

function hasTag(tag: Bindable | undefined): SQL | undefined {
  return tag === undefined ? undefined : sql`JSON_CONTAINS(${memory.tags}, JSON_QUOTE(${tag}))`;
}

/** Statement shapes for loading contexts: ids are padded up to one of these counts. */
const CONTEXT_BATCH_SIZES = [1, 4, 16, 64, 128];

/**
 * The contexts of memories already read under `scope`, by memory id (no statement when none
 * has any). Search reads them so, for its ranked results only: in the candidates' statement
 * they would be read for every candidate, most of which are not returned.
 */
async function contextsOf(ex: Executor, scope: OwnerScope, rows: readonly MemoryColumns[]): Promise<Map<string, MemoryContextRecord[]>> {
  const byMemory = new Map<string, MemoryContextRecord[]>();
  const withContexts = rows.filter((row) => row.contextCount > 0);
  if (withContexts.length === 0) return byMemory;
  const ids = padded(
    withContexts.map((row) => row.id),
    CONTEXT_BATCH_SIZES,
  );
  const query = preparedOn(ex, `contexts:${ids.length}`, (on) =>
    on
      .select({
        id: memoryContext.id,
        memoryId: memoryContext.memoryId,
        snippet: memoryContext.snippet,
        citation: memoryContext.citation,
        conversationId: memoryContext.conversationId,
        messageId: memoryContext.messageId,
        origin: memoryContext.origin,
        createdAt: isoTimestamp(memoryContext.createdAt),
      })
      .from(memoryContext, { forceIndex: MEMORY_INDEXES.contextsOfMemory })
      .where(
        and(
          eq(memoryContext.orgId, OWNER.orgId),
          inArray(
            memoryContext.memoryId,
            ids.map((_, i) => sql.placeholder(`m${i}`)),
          ),
        ),
      )
      .orderBy(asc(memoryContext.memoryId), asc(memoryContext.id)),
  );
  const contextRows = await query.execute({ orgId: scope.orgId, ...Object.fromEntries(ids.map((id, i) => [`m${i}`, id])) });
  for (const row of contextRows) {
    const context: MemoryContextRecord = {
      id: row.id,
      snippet: row.snippet,
      citation: row.citation,
      conversationId: row.conversationId,
      messageId: row.messageId,
      origin: row.origin,
      createdAt: row.createdAt,
    };
    const list = byMemory.get(row.memoryId);
    if (list) list.push(context);
    else byMemory.set(row.memoryId, [context]);
  }
  return byMemory;
}

/** A memory as read, with its contexts: one object built once, without the read-only columns. */
function memoryRecordOf(row: MemoryColumns, contexts: MemoryContextRecord[]): MemoryRecord {
  return {
    id: row.id,
    orgId: row.orgId,
    userId: row.userId,
    scope: row.scope,
    source: row.source,
    content: row.content,
    tags: row.tags,
    supersededBy: row.supersededBy,
    expiresAt: row.expiresAt,
    pinned: Boolean(row.pinned),
    useCount: row.useCount,
    lastUsedAt: row.lastUsedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    contexts,
  };
}

/** A memory read with its contexts column (memoryWithContexts). */
function memoryWithContextsOf(row: MemoryWithContexts): MemoryRecord {
  return memoryRecordOf(row, contextsFrom(row.contexts));
}

/** A memory an import saves: `importKey` is the hash of the line's normalised save (schema/memory.ts). */
export type NewImportedMemory = NewMemory & { importKey: string };

/**
 * Saves memories and their contexts, owned by `scope`'s user, with what they add to their
 * owners' search statistics. Call it inside a transaction: the memories and the statistics
 * that count them commit together. One memory goes out as a prepared INSERT, several as
 * one multi-row INSERT, their contexts as one more; a key the user already imported fails
 * the statement (UNIQUE).
 */
export async function insertMemories(ex: Executor, scope: OwnerScope, inputs: readonly (NewMemory | NewImportedMemory)[]): Promise<MemoryRecord[]> {
  if (inputs.length === 0) return [];
  const deltas = new Map<string, OwnerStatsDelta>();
  const rows = inputs.map((input) => {
    const statsOwner = statsOwnerOf({ orgId: scope.orgId, userId: scope.userId, scope: input.scope });
    const delta = deltas.get(statsOwner) ?? new Map();
    deltas.set(statsOwner, delta);
    return { ...memoryRowOf(scope, input, delta).row, ...('importKey' in input && { importKey: input.importKey }) };
  });
  if (rows.length === 1 && !('importKey' in rows[0]!)) {
    const insert = preparedOn(ex, 'insertMemory', (on) =>
      on.insert(memory).values({
        id: sql.placeholder('id'),
        orgId: sql.placeholder('orgId'),
        userId: sql.placeholder('userId'),
        scope: sql.placeholder('scope'),
        source: sql.placeholder('source'),
        content: sql.placeholder('content'),
        contentKey: sql.placeholder('contentKey'),
        tags: sql.placeholder('tags'),
        // A nullable Date: handed to the driver as it is (drizzle's datetime mapping does not take null).
        expiresAt: placeholderValue<Date | null>('expiresAt'),
        pinned: sql.placeholder('pinned'),
        searchTerms: sql.placeholder('searchTerms'),
        searchVersion: sql.placeholder('searchVersion'),
        contextCount: sql.placeholder('contextCount'),
        createdAt: sql.placeholder('createdAt'),
        updatedAt: sql.placeholder('createdAt'),
      }),
    );
    await insert.execute(rows[0]!);
  } else {
    await ex.insert(memory).values(rows);
  }
  const contexts = inputs.flatMap((input) => input.contexts.map((context) => ({ ...context, memoryId: input.id, orgId: scope.orgId })));
  if (contexts.length > 0) await ex.insert(memoryContext).values(contexts);
  // Owners in a fixed order (user ids before the org's), so saves of one user cannot deadlock.
  for (const [statsOwner, delta] of [...deltas].sort(([x], [y]) => (x < y ? -1 : 1))) await applyStatsDelta(ex, scope.orgId, statsOwner, delta);
  return inputs.map((input) => ({
    id: input.id,
    orgId: scope.orgId,
    userId: scope.userId,
    scope: input.scope,
    source: input.source,
    content: input.content,
    tags: input.tags,
    supersededBy: null,
    expiresAt: input.expiresAt?.toISOString() ?? null,
    pinned: input.pinned,
    useCount: 0,
    lastUsedAt: null,
    createdAt: input.createdAt.toISOString(),
    updatedAt: input.createdAt.toISOString(),
    contexts: input.contexts.map((context) => ({ ...context, createdAt: context.createdAt.toISOString() })),
  }));
}

/** Which of `keys` the scope's user has already imported, with the memory each became (read inside the importing transaction). */
export async function importedKeys(ex: Executor, scope: OwnerScope, keys: string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await ex
    .select({ id: memory.id, importKey: memory.importKey })
    .from(memory)
    .where(and(eq(memory.orgId, scope.orgId), eq(memory.userId, scope.userId), inArray(memory.importKey, keys)));
  return new Map(rows.flatMap((row) => (row.importKey === null ? [] : [[row.importKey, row.id] as const])));
}

/** A memory the scope may see and that has not expired at `now`: current or superseded. */
export async function findMemory(ex: Executor, scope: OwnerScope, id: string, now: Date = new Date()): Promise<MemoryRecord | null> {
  const query = preparedOn(ex, 'findMemory', (on) =>
    on
      .select(memoryWithContexts)
      .from(memory)
      .where(and(eq(memory.id, sql.placeholder('id')), visibleTo(OWNER), unexpired(sql.placeholder('now')))),
  );
  const [found] = await query.execute({ id, orgId: scope.orgId, userId: scope.userId, now });
  return found ? memoryWithContextsOf(found) : null;
}

export interface MemoryPage {
  memories: MemoryRecord[];
  /** Id of the last memory returned when more follow. */
  lastId: string | null;
}

/**
 * Newest first; `beforeId` continues after the last memory of the previous page. Each
 * branch walks one index of the caller's own rows, named in a hint, newest first, and stops
 * after a page: a page reads the same few rows however many the owner, the org or other
 * orgs hold, whatever the optimiser's statistics say.
 */
export async function listMemories(
  ex: Executor,
  scope: OwnerScope,
  options: { limit: number; now?: Date; beforeId?: string; tag?: string; source?: MemorySource; filter?: ScopeFilter; includeSuperseded?: boolean },
): Promise<MemoryPage> {
  const tagged = options.tag !== undefined;
  const sourced = options.source !== undefined;
  const filter = options.filter ?? 'all';
  const superseded = options.includeSuperseded ?? false;
  // The member's own memories of any scope (`mine`), or of one; the org's shared ones (`org`).
  const branch = (on: Executor, which: 'mine' | ScopeFilter) =>
    on
      .select(memoryWithContexts)
      .from(memory, { forceIndex: which === 'org' ? MEMORY_INDEXES.orgScope : MEMORY_INDEXES.owner })
      .where(
        and(
          which === 'mine' ? and(eq(memory.orgId, OWNER.orgId), eq(memory.userId, OWNER.userId)) : visibleTo(OWNER, which),
          lt(memory.id, sql.placeholder('before')),
          live(sql.placeholder('now'), superseded),
          tagged ? hasTag(sql.placeholder('tag')) : undefined,
          sourced ? eq(memory.source, sql.placeholder('source')) : undefined,
        ),
      )
      .orderBy(desc(memory.id))
      .limit(sql.placeholder('limit'));
  // Both scopes: what the member owns and what the org shares, each a page at most, merged
  // by the server (UNION drops the member's own shared memories, which both hold). One OR
  // would let the optimiser answer by scanning the org.
  const rows = await preparedOn(ex, `list:${filter}:${tagged}:${sourced}:${superseded}`, (on) =>
    filter === 'all' ? union(branch(on, 'mine'), branch(on, 'org')).orderBy(sql`\`id\` desc`).limit(sql.placeholder('limit')) : branch(on, filter),
  ).execute({
    orgId: scope.orgId,
    userId: scope.userId,
    // The largest id there can be (26 Zs), so the first page starts at the newest.
    before: options.beforeId ?? `mem_${'Z'.repeat(26)}`,
    limit: options.limit + 1,
    now: options.now ?? new Date(),
    ...(tagged ? { tag: options.tag } : {}),
    ...(sourced ? { source: options.source } : {}),
  });
  const kept = rows.slice(0, options.limit);
  return { memories: kept.map(memoryWithContextsOf), lastId: rows.length > options.limit ? (kept.at(-1)?.id ?? null) : null };
}

/** Candidates re-ranked per search: enough that the owner's best matches are among them. */
export const SEARCH_CANDIDATES = 64;

/** Where words too common to look up in the FULLTEXT index are looked for: the newest this many memories of each scope searched. */
export const RECENT_WINDOW = 256;

/**
 * Search (docs/architecture.md#search), in up to three statements:
 *
 * 1. the owners' statistics for the query's terms (primary-key lookups);
 * 2. FULLTEXT in BOOLEAN MODE over the owner-prefixed terms of the query's selective words
 *    — all of them unless some are common for the owner (selectivity.ts), whose posting
 *    lists would make the statement cost what the owner holds — up to SEARCH_CANDIDATES;
 * 3. when some are common, the owner's RECENT_WINDOW newest memories (per scope), of which
 *    the newest SEARCH_CANDIDATES holding one of them are candidates too.
 *
 * The candidates are then re-ranked with BM25 over the owners' statistics, every query
 * word counting, and the best ones get their contexts.
 */
export async function searchMemories(
  ex: Executor,
  scope: OwnerScope,
  options: {
    query: string;
    limit: number;
    /** Default: the current time. */
    now?: Date;
    tag?: string;
    source?: MemorySource;
    filter?: ScopeFilter;
    includeSuperseded?: boolean;
    /** `relevance` (default): best match first; `recent`: the matching memories, newest change first. */
    sort?: 'relevance' | 'recent';
    /**
     * Search by this many of the query's words, the rarest among the owners' memories
     * (selectivity.ts mostDistinctive): for a long query, such as a memory's own text.
     */
    distinctiveWords?: number;
    /** Candidates the FULLTEXT step picks (default SEARCH_CANDIDATES): fewer when only the very best few matter. */
    candidates?: number;
    /** Read the results' contexts and highlights (default true); `false` when only ids, text and scores are wanted. */
    whole?: boolean;
    /** Words this dictionary does not know, and no owner's memory holds, are corrected (search/corrections.ts); none without it. */
    spelling?: SpellingDictionary;
    /**
     * The owners' memories nearest to the query by meaning (search/fusion.ts), computed
     * beside the lexical statements; null or absent: lexical only. Ids are re-read here
     * under the same scope and filters, so stale or foreign ids are harmless.
     */
    semantic?: Promise<readonly SemanticHit[] | null> | readonly SemanticHit[] | null;
  },
): Promise<MemorySearch> {
  const asked = parseSearchQuery(options.query);
  const none: MemorySearch = { results: [], correctedQuery: null };
  if (asked.words.length === 0) {
    await options.semantic;
    return none;
  }
  const filter = options.filter ?? 'all';
  const superseded = options.includeSuperseded ?? false;
  const owners = visibleOwners(scope, filter);
  const tags = owners.map((owner) => owner.tag);
  const tagged = options.tag !== undefined;
  const sourced = options.source !== undefined;
  const narrowed = (which: ScopeFilter) =>
    and(
      visibleTo(OWNER, which),
      live(sql.placeholder('now'), superseded),
      tagged ? hasTag(sql.placeholder('tag')) : undefined,
      sourced ? eq(memory.source, sql.placeholder('source')) : undefined,
    );
  const params = {
    orgId: scope.orgId,
    userId: scope.userId,
    now: options.now ?? new Date(),
    limit: options.candidates ?? SEARCH_CANDIDATES,
    ...(tagged ? { tag: options.tag } : {}),
    ...(sourced ? { source: options.source } : {}),
  };

  const statsTerms = statsTermsFor(statsTermsOf(asked));
  const [statsRow] = await preparedOn(ex, `searchStats:${filter}:${statsTerms.slots}`, (on) =>
    on
      .select({ stats: ownersStatsColumn(OWNER.orgId, owners.map((owner) => owner.id), statsTerms.slots) })
      .from(orgs)
      .where(eq(orgs.id, OWNER.orgId)),
  ).execute({ ...params, ...statsTerms.params });
  let stats = ownersStatsFrom(statsRow?.stats ?? null, statsTerms);
  let parsed = options.distinctiveWords === undefined ? asked : mostDistinctive(asked, stats, options.distinctiveWords);
  const misspelt = options.spelling ? correctableWords(parsed, stats, options.spelling) : [];
  if (misspelt.length > 0) {
    const ownerIds = owners.map((owner) => (owner.which === 'user' ? scope.userId : scope.orgId));
    const vocabulary = await ownersVocabulary(ex, scope.orgId, ownerIds, vocabularyRanges(misspelt));
    ({ query: parsed, stats } = withCorrections(parsed, stats, chooseCorrections(misspelt, vocabulary)));
  }
  const correctedQuery = correctedQueryText(options.query, correctionsOf(parsed));
  const common = commonWords(parsed, stats);

  const candidates = new Map<string, MemoryColumns & { searchTerms: string }>();
  if (common.size < parsed.words.length) {
    const fulltext = preparedOn(ex, `search:${filter}:${tagged}:${sourced}:${superseded}`, (on) => {
      const match = sql<number>`MATCH(${memory.searchTerms}) AGAINST(${sql.placeholder('against')} IN BOOLEAN MODE)`;
      return on
        .select({ ...memoryColumns, searchTerms: memory.searchTerms, score: match.as('score') })
        .from(memory)
        .where(and(match, narrowed(filter)))
        .orderBy(desc(sql`score`), desc(memory.id))
        .limit(sql.placeholder('limit'));
    });
    for (const row of await fulltext.execute({ ...params, against: booleanAgainst(tags, parsed, common) })) candidates.set(row.id, row);
  }
  if (common.size > 0) {
    // Each scope's newest memories, from its own index; those holding a common word are
    // candidates too, newest first (matched here: the database's LIKE over the terms costs
    // more than reading them).
    const commonQueryWords = parsed.words.filter((word) => common.has(word.text));
    const windows = await Promise.all(
      owners.map(({ which }) =>
        preparedOn(ex, `searchRecent:${which}:${tagged}:${sourced}:${superseded}`, (on) =>
          on
            .select({ ...memoryColumns, searchTerms: memory.searchTerms })
            .from(memory, { forceIndex: which === 'org' ? MEMORY_INDEXES.orgScope : MEMORY_INDEXES.owner })
            .where(narrowed(which))
            .orderBy(desc(memory.id))
            .limit(sql.placeholder('window')),
        ).execute({ ...params, window: RECENT_WINDOW }),
      ),
    );
    for (const [i, rows] of windows.entries()) {
      const tokens = termTokens(owners[i]!.tag, commonQueryWords);
      const holding = rows.filter((row) => tokens.some((token) => holdsToken(row.searchTerms, token))).slice(0, SEARCH_CANDIDATES);
      for (const row of holding) if (!candidates.has(row.id)) candidates.set(row.id, row);
    }
  }
  const semantic = (await options.semantic) ?? null;
  if (semantic !== null) {
    const unread = semantic.map((hit) => hit.memoryId).filter((id) => !candidates.has(id));
    for (let offset = 0; offset < unread.length; offset += MAX_ID_BATCH) {
      const ids = padded(unread.slice(offset, offset + MAX_ID_BATCH), ID_BATCH_SIZES);
      const byIds = preparedOn(ex, `searchByIds:${filter}:${tagged}:${sourced}:${superseded}:${ids.length}`, (on) =>
        on
          .select({ ...memoryColumns, searchTerms: memory.searchTerms })
          .from(memory)
          .where(and(inArray(memory.id, ids.map((_, i) => sql.placeholder(`m${i}`))), narrowed(filter))),
      );
      for (const row of await byIds.execute({ ...params, ...Object.fromEntries(ids.map((id, i) => [`m${i}`, id])) })) candidates.set(row.id, row);
    }
  }
  if (candidates.size === 0) return { results: [], correctedQuery };
  const recent = options.sort === 'recent';
  const lexical = rankCandidates([...candidates.values()], parsed, stats, candidates.size);
  let ranked = fuseRankings(lexical, semantic, candidates, recent ? candidates.size : options.limit);
  // Ids are ULIDs and updated_at is text of one format: both sort as strings.
  if (recent) ranked = ranked.sort((a, b) => (b.row.updatedAt === a.row.updatedAt ? (b.row.id > a.row.id ? 1 : -1) : b.row.updatedAt > a.row.updatedAt ? 1 : -1)).slice(0, options.limit);
  const whole = options.whole ?? true;
  const contexts = whole
    ? await contextsOf(
        ex,
        scope,
        ranked.map((result) => result.row),
      )
    : new Map<string, MemoryContextRecord[]>();
  return {
    results: ranked.map(({ row, score, match, matched, corrected, semantic: bySemantic }) =>
      Object.assign(memoryRecordOf(row, contexts.get(row.id) ?? []), { score, match: { ...match, semantic: bySemantic, highlights: whole ? highlightsOf(row.content, matched, corrected) : [] } }),
    ),
    correctedQuery,
  };
}

/** Statement shapes for reading the semantic ranking's memories by id: ids are padded up to one of these counts. */
const ID_BATCH_SIZES = [8, 32, 64];
const MAX_ID_BATCH = ID_BATCH_SIZES.at(-1)!;

/**
 * Locks a memory the scope may see, for a change in the same transaction; null when it
 * cannot see it. Whether it may change it (an org memory needs an admin) is the caller's
 * rule.
 */
export async function lockVisibleMemory(ex: Executor, scope: OwnerScope, id: string, now: Date = new Date()): Promise<MemoryRecord | null> {
  const [found] = await ex
    .select(memoryWithContexts)
    .from(memory)
    .where(and(eq(memory.id, id), visibleTo(scope), unexpired(now)))
    .for('update');
  return found ? memoryWithContextsOf(found) : null;
}

/**
 * Changes content and/or tags of a memory locked with lockVisibleMemory; the search terms
 * follow the content in the same statement, so search sees the change at commit.
 */
export async function writeMemoryChange(
  ex: Executor,
  scope: OwnerScope,
  current: MemoryRecord,
  change: { content?: string; tags?: string[]; expiresAt?: Date | null; pinned?: boolean; updatedAt: Date },
): Promise<MemoryRecord> {
  const content = change.content ?? current.content;
  const tags = change.tags ?? current.tags;
  const expiresAt = change.expiresAt === undefined ? undefined : change.expiresAt;
  const pinned = change.pinned ?? current.pinned;
  const where = and(eq(memory.id, current.id), visibleTo(scope));
  let reindexed: { columns: Record<string, unknown>; delta: OwnerStatsDelta } | undefined;
  if (change.content !== undefined) {
    // The row is locked (lockVisibleMemory): its version says whether its old terms were counted.
    const [stored] = await ex.select({ version: memory.searchVersion }).from(memory).where(where);
    const indexed = indexedContent(current, content);
    reindexed = { columns: indexed.columns, delta: removedContent(stored?.version ?? 0, current.content, indexed.delta) };
  }
  await ex
    .update(memory)
    .set({
      content,
      tags,
      pinned,
      updatedAt: change.updatedAt,
      ...(expiresAt !== undefined && { expiresAt }),
      ...(change.content !== undefined && { contentKey: contentKeyOf(content) }),
      ...reindexed?.columns,
    })
    .where(where);
  if (reindexed) await applyStatsDelta(ex, current.orgId, statsOwnerOf(current), reindexed.delta);
  return {
    ...current,
    content,
    tags,
    pinned,
    ...(expiresAt !== undefined && { expiresAt: expiresAt?.toISOString() ?? null }),
    updatedAt: change.updatedAt.toISOString(),
  };
}

/** What an admin may know of any memory of their org: who owns it and its scope, never its text. */
export interface MemoryOwnership {
  id: string;
  userId: string;
  scope: MemoryScope;
  supersededBy: string | null;
}

/** Any memory of the org, for admins (deletion), without its content. */
export async function lockOrgMemory(ex: Executor, org: OrgScope, id: string): Promise<MemoryOwnership | null> {
  const [row] = await ex
    .select({ id: memory.id, userId: memory.userId, scope: memory.scope, supersededBy: memory.supersededBy })
    .from(memory)
    .where(and(eq(memory.id, id), eq(memory.orgId, org.orgId)))
    .for('update');
  return row ?? null;
}

/**
 * Deletes one memory of the org by id; its contexts go with it (FK cascade), and its
 * terms leave its owner's search statistics.
 */
export async function deleteOrgMemory(ex: Executor, org: OrgScope, id: string): Promise<boolean> {
  const where = and(eq(memory.id, id), eq(memory.orgId, org.orgId));
  const [row] = await ex
    .select({ orgId: memory.orgId, userId: memory.userId, scope: memory.scope, content: memory.content, version: memory.searchVersion })
    .from(memory)
    .where(where)
    .for('update');
  if (!row) return false;
  const [result] = await ex.delete(memory).where(where);
  await applyStatsDelta(ex, row.orgId, statsOwnerOf(row), removedContent(row.version, row.content));
  return result.affectedRows > 0;
}

/** Metadata of a member's memories for their org's admins: no content, no snippets. */
export interface MemoryMetadata {
  id: string;
  scope: MemoryScope;
  tags: string[];
  /** Content size in bytes. */
  size: number;
  contextCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export async function listMemberMemoryMetadata(
  ex: Executor,
  org: OrgScope,
  userId: string,
  options: { limit: number; beforeId?: string },
): Promise<{ rows: MemoryMetadata[]; hasMore: boolean }> {
  const rows = await ex
    .select({
      id: memory.id,
      scope: memory.scope,
      tags: memory.tags,
      size: sql<number>`LENGTH(${memory.content})`.mapWith(Number),
      contextCount: memory.contextCount,
      createdAt: memory.createdAt,
      updatedAt: memory.updatedAt,
    })
    .from(memory)
    .where(and(eq(memory.orgId, org.orgId), eq(memory.userId, userId), options.beforeId ? lt(memory.id, options.beforeId) : undefined))
    .orderBy(desc(memory.id))
    .limit(options.limit + 1);
  return { rows: rows.slice(0, options.limit), hasMore: rows.length > options.limit };
}

/** Deletes a member's private memories (their contexts cascade). Org-shared ones stay with the org. */
export async function purgeMemberMemories(ex: Executor, org: OrgScope, userId: string): Promise<{ memories: number; contexts: number }> {
  const owned = and(eq(memory.orgId, org.orgId), eq(memory.userId, userId), eq(memory.scope, 'user'));
  const [contexts] = await ex
    .select({ n: count() })
    .from(memoryContext)
    .innerJoin(memory, and(eq(memory.id, memoryContext.memoryId), eq(memoryContext.orgId, memory.orgId)))
    .where(owned);
  const [deleted] = await ex.delete(memory).where(owned);
  await deleteOwnerStats(ex, org.orgId, userId);
  return { memories: deleted.affectedRows, contexts: contexts?.n ?? 0 };
}

/**
 * How many memories the org stores, for its quota, with the org's row locked until the
 * transaction ends: saves that check the quota queue behind each other, so two cannot
 * both take the last place.
 */
export async function countOrgMemoriesLocked(ex: Executor, org: OrgScope): Promise<number> {
  await ex.select({ id: orgs.id }).from(orgs).where(eq(orgs.id, org.orgId)).for('update');
  const [row] = await ex.select({ n: count() }).from(memory).where(eq(memory.orgId, org.orgId));
  return row?.n ?? 0;
}

/**
 * Holds back the other saves of one owner (a user, or the org for shared memories) until
 * this transaction ends, by locking the owner's statistics totals row, which every save
 * writes anyway: the duplicate check that follows then sees every save committed before it.
 */
export async function lockOwnerSaves(ex: Executor, org: OrgScope, ownerId: string): Promise<void> {
  await ex
    .select({ docs: memoryTermStats.docs })
    .from(memoryTermStats)
    .where(and(eq(memoryTermStats.orgId, org.orgId), eq(memoryTermStats.ownerId, ownerId), eq(memoryTermStats.term, '')))
    .for('update');
}

/** A live memory a save may be a duplicate of. */
export interface DuplicateCandidate {
  id: string;
  scope: MemoryScope;
  userId: string;
  contentKey: string;
  tags: string[];
  contextCount: number;
}

/**
 * The scope's live memories (current, unexpired) with one of these content keys: its own
 * private ones and the org's shared ones. A plain read: the caller holds its owners' saves
 * back (lockOwnerSaves) before its first read, so it sees every save committed before; a
 * locking read would take gap locks that an import of the same owner deadlocks against.
 */
export async function findDuplicateMemories(ex: Executor, scope: OwnerScope, contentKeys: readonly string[], now: Date): Promise<DuplicateCandidate[]> {
  if (contentKeys.length === 0) return [];
  const rows = await ex
    .select({ id: memory.id, scope: memory.scope, userId: memory.userId, contentKey: memory.contentKey, tags: memory.tags, contextCount: memory.contextCount })
    .from(memory)
    .where(and(eq(memory.orgId, scope.orgId), inArray(memory.contentKey, [...new Set(contentKeys)]), visibleTo(scope), isNull(memory.supersededBy), unexpired(now)))
    .orderBy(asc(memory.id));
  return rows.flatMap((row) => (row.contentKey === null ? [] : [{ ...row, contentKey: row.contentKey }]));
}

/** Adds contexts and tags to a memory found by findDuplicateMemories (a duplicate save). */
export async function addToMemory(
  ex: Executor,
  org: OrgScope,
  target: DuplicateCandidate,
  addition: { contexts: NewMemoryContext[]; tags: string[]; updatedAt: Date },
): Promise<void> {
  if (addition.contexts.length > 0) await ex.insert(memoryContext).values(addition.contexts.map((context) => ({ ...context, memoryId: target.id, orgId: org.orgId })));
  await ex
    .update(memory)
    .set({ tags: addition.tags, contextCount: target.contextCount + addition.contexts.length, updatedAt: addition.updatedAt })
    .where(and(eq(memory.orgId, org.orgId), eq(memory.id, target.id)));
}

/** A memory named in `supersedes`, locked: what the rules need to decide whether it may be. */
export interface SupersedeTarget {
  id: string;
  scope: MemoryScope;
  userId: string;
  supersededBy: string | null;
}

/** The memories among `ids` the scope may see and that have not expired, locked. */
export async function lockSupersedeTargets(ex: Executor, scope: OwnerScope, ids: readonly string[], now: Date): Promise<SupersedeTarget[]> {
  if (ids.length === 0) return [];
  return ex
    .select({ id: memory.id, scope: memory.scope, userId: memory.userId, supersededBy: memory.supersededBy })
    .from(memory)
    .where(and(inArray(memory.id, [...ids]), visibleTo(scope), unexpired(now)))
    .for('update');
}

/** Marks memories of the org as replaced by `by`. */
export async function markSuperseded(ex: Executor, org: OrgScope, ids: readonly string[], by: string): Promise<void> {
  if (ids.length === 0) return;
  await ex
    .update(memory)
    .set({ supersededBy: by })
    .where(and(eq(memory.orgId, org.orgId), inArray(memory.id, [...ids])));
}

/** The most memories a chain's history holds: a deeper chain answers its newest this many. */
export const HISTORY_LIMIT = 100;

/**
 * The ids of a memory's chain: the memory that finally replaced it (the head) and every
 * memory that led to it, through `superseded_by`, as far as the scope sees them.
 */
export async function memoryChainIds(ex: Executor, scope: OwnerScope, id: string, now: Date): Promise<{ head: string; ids: string[] }> {
  // Up the chain, one row a step: the head is the last version the scope can see.
  let head = id;
  const seen = new Set<string>();
  for (let candidate: string | null = id; candidate !== null && !seen.has(candidate) && seen.size < HISTORY_LIMIT; ) {
    const [row] = await ex
      .select({ supersededBy: memory.supersededBy })
      .from(memory)
      .where(and(eq(memory.id, candidate), visibleTo(scope), unexpired(now)));
    if (!row) break;
    head = candidate;
    seen.add(candidate);
    candidate = row.supersededBy;
  }
  const ids = [head];
  let frontier = [head];
  while (frontier.length > 0 && ids.length < HISTORY_LIMIT) {
    const rows = await ex
      .select({ id: memory.id })
      .from(memory)
      .where(and(eq(memory.orgId, scope.orgId), inArray(memory.supersededBy, frontier), visibleTo(scope), unexpired(now)))
      .orderBy(desc(memory.id))
      .limit(HISTORY_LIMIT);
    frontier = rows.map((row) => row.id).filter((found) => !ids.includes(found));
    ids.push(...frontier);
  }
  return { head, ids: ids.slice(0, HISTORY_LIMIT) };
}

/** Memories of the org, read whole, newest first (a chain's history). */
export async function findMemoriesByIds(ex: Executor, scope: OwnerScope, ids: readonly string[], now: Date): Promise<MemoryRecord[]> {
  if (ids.length === 0) return [];
  const rows = await ex
    .select(memoryWithContexts)
    .from(memory)
    .where(and(inArray(memory.id, [...ids]), visibleTo(scope), unexpired(now)))
    .orderBy(desc(memory.id));
  return rows.map(memoryWithContextsOf);
}

/** Gives the memories `id` replaced to the memory that replaced it (deleting an older version of a chain). */
export async function relinkSuperseded(ex: Executor, org: OrgScope, id: string, to: string | null): Promise<void> {
  await ex
    .update(memory)
    .set({ supersededBy: to })
    .where(and(eq(memory.orgId, org.orgId), eq(memory.supersededBy, id)));
}

/** The ids of memories that `ids` replaced, directly or not (deleting a chain from its head). */
export async function supersededChainOf(ex: Executor, org: OrgScope, head: string): Promise<string[]> {
  const ids: string[] = [];
  let frontier = [head];
  while (frontier.length > 0) {
    const rows = await ex
      .select({ id: memory.id })
      .from(memory)
      .where(and(eq(memory.orgId, org.orgId), inArray(memory.supersededBy, frontier)))
      .for('update');
    frontier = rows.map((row) => row.id).filter((found) => !ids.includes(found) && found !== head);
    ids.push(...frontier);
  }
  return ids;
}

/** Memories of the org saved before content keys existed: up to `limit` of them, keyed now; how many. */
export async function backfillContentKeys(ex: Executor, org: OrgScope, limit: number): Promise<number> {
  const rows = await ex
    .select({ id: memory.id, content: memory.content })
    .from(memory)
    .where(and(eq(memory.orgId, org.orgId), isNull(memory.contentKey)))
    .limit(limit);
  for (const row of rows) {
    await ex
      .update(memory)
      .set({ contentKey: contentKeyOf(row.content) })
      .where(and(eq(memory.orgId, org.orgId), eq(memory.id, row.id)));
  }
  return rows.length;
}
