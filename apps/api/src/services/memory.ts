import {
  addToMemory,
  contentKeyOf,
  countOrgMemoriesLocked,
  deleteMemoryVector,
  createGroupCommit,
  deleteOrgMemory,
  findDuplicateMemories,
  findMemoriesByIds,
  findMemory,
  hasErrorCode,
  inTransaction,
  insertMemories,
  isId,
  listMemories,
  lockOrgMemory,
  lockOwnerSaves,
  lockSupersedeTargets,
  lockVisibleMemory,
  markSuperseded,
  memoryChainIds,
  newId,
  relinkSuperseded,
  searchMemories,
  statsOwnerOf,
  supersededChainOf,
  writeMemoryChange,
  type DuplicateCandidate,
  type Executor,
  type MemoryScope,
  type ScopeFilter,
  type Citation,
  type ContextOrigin,
  type MemoryRecord,
  type MemorySource,
  type NewMemory,
  type MemorySearch,
  type OrgScope,
  type OwnerScope,
  type SemanticHit,
  type SpellingDictionary,
} from '@memory-bank/db';
import type { Logger } from 'pino';
import { hasAdminPowers, requireAdmin, type Principal } from '../auth/principal';
import type { SimilarityCalibration } from '../embeddings/embedding-provider';
import { errorForLog } from '../logger';
import { AppError, notFound } from '../errors';
import { actorOf, recordAudit } from './audit';
import { beforeIdCursor } from './cursor';
import type { ServiceDeps } from './deps';
import { createIdempotencyService, type IdempotentOutcome } from './idempotency';
import { redactionMarkersIn, type MemoryRedaction } from './memory-redaction';
import { memoryEtag, requireIfMatch } from './preconditions';
import { MEMORY_LIMITS } from '../limits';

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
  /** `org` shares it with the whole org (admins and owners only). Default `user`. */
  scope?: MemoryScope;
  /** The caller's live memories this one replaces. */
  supersedes?: string[];
  /** When it stops being read; absent: never. */
  expiry?: ExpiryInput;
  pinned?: boolean;
}

/** An expiry as a request gives it: an RFC 3339 time in the future, or seconds from now; `expiresAt: null` clears one (PATCH). */
export interface ExpiryInput {
  expiresAt?: string | null;
  ttlSeconds?: number;
}

export interface MemoryChange {
  content?: string;
  tags?: string[];
  /** A new expiry, or `{ expiresAt: null }` to clear it. */
  expiry?: ExpiryInput;
  pinned?: boolean;
}

function fieldError(path: string, message: string): AppError {
  return new AppError('validation_failed', `${path} ${message}`, { errors: [{ path, message }] });
}

/**
 * The moment an expiry names, checked against `now`: in the future and at most
 * MEMORY_LIMITS.ttlSeconds ahead; undefined when none is asked for, null to clear.
 */
export function expiryAt(input: ExpiryInput | undefined, now: Date): Date | null | undefined {
  if (input === undefined) return undefined;
  if (input.expiresAt !== undefined && input.ttlSeconds !== undefined) throw fieldError('ttl_seconds', 'cannot be sent with expires_at; send one');
  const latest = now.getTime() + MEMORY_LIMITS.ttlSeconds * 1000;
  if (input.ttlSeconds !== undefined) return new Date(now.getTime() + input.ttlSeconds * 1000);
  if (input.expiresAt === undefined) return undefined;
  if (input.expiresAt === null) return null;
  const at = new Date(input.expiresAt);
  if (!(at.getTime() > now.getTime())) throw fieldError('expires_at', 'must be in the future');
  if (at.getTime() > latest) throw fieldError('expires_at', `must be at most ${MEMORY_LIMITS.ttlSeconds} seconds ahead`);
  return at;
}

/** Another live memory of the owner much like a new one. */
export interface SimilarMemory {
  id: string;
  score: number;
  content: string;
}

/**
 * A memory as saved, with how many secrets in its content and contexts were redacted, and
 * whether the save was a duplicate of it (nothing new stored: its contexts and tags added).
 */
export type SavedMemory = MemoryRecord & { redacted: number; duplicate: boolean };

/** What a save answers: the memory, and the memories much like it (`similar`). */
export type CreatedMemory = SavedMemory & { similar: SimilarMemory[] };

/** A save ready to write, as the group commit carries it. */
interface PendingSave {
  principal: Principal;
  memory: NewMemory;
  supersedes: string[];
}

/** What a save became: a new memory, or the live memory it duplicated. */
interface SaveOutcome {
  record: MemoryRecord;
  duplicate: boolean;
}

export interface MemoryListPage {
  memories: MemoryRecord[];
  nextCursor: string | null;
}

/** Conditions a client puts on a change (If-Match). */
export interface WritePreconditions {
  ifMatch?: string;
}

export type MemoryService = ReturnType<typeof createMemoryService>;

/** Tries of a save transaction InnoDB chose as a deadlock victim (two first saves of an owner creating its statistics rows). */
const DEADLOCK_ATTEMPTS = 3;

/** Tags are trimmed and de-duplicated, first occurrence first. */
export function normaliseTags(tags: string[] | undefined): string[] {
  return [...new Set((tags ?? []).map((tag) => tag.trim()))];
}

export interface MemorySearchOptions {
  query: string;
  limit: number;
  tag?: string;
  source?: MemorySource;
  scope?: ScopeFilter;
  includeSuperseded?: boolean;
  sort?: 'relevance' | 'recent';
  /** `lexical`: words only, for this search (default `hybrid`: words and meaning). */
  mode?: 'hybrid' | 'lexical';
}

/** What search uses beside the database: a dictionary for typo correction, and the meaning search when there is one. */
export interface SearchAids {
  spelling: () => Promise<SpellingDictionary>;
  meaning: MeaningSearch | null;
}

/** The owners' memories nearest to a query by meaning (embeddings). */
export interface MeaningSearch {
  /** Best first, with their cosine similarity to the query; null when the meaning search is off for this query. */
  nearest(scope: OwnerScope, filter: ScopeFilter, query: string, k: number): Promise<{ memoryId: string; similarity: number }[] | null>;
  /** The model's similarities that say nothing (unrelated texts reach them) and that say the same thing. */
  calibration: SimilarityCalibration;
}

/** A model's cosine similarity as search's closeness in meaning (0–1). */
function closenessOf(similarity: number, { floor, ceiling }: SimilarityCalibration): number {
  return Math.max(0, Math.min(1, (similarity - floor) / (ceiling - floor)));
}

/**
 * The meaning search's hits for a query as search fuses them; null when it is off for the
 * query. Never rejects: it runs beside the lexical statements, and a failure of its own
 * leaves search to the words.
 */
async function semanticHits(meaning: MeaningSearch, scope: OwnerScope, filter: ScopeFilter, query: string, logger: Logger): Promise<SemanticHit[] | null> {
  try {
    const nearest = await meaning.nearest(scope, filter, query, SEMANTIC_CANDIDATES);
    return nearest === null ? null : nearest.map((hit) => ({ memoryId: hit.memoryId, closeness: closenessOf(hit.similarity, meaning.calibration) }));
  } catch (error) {
    logger.warn({ error: errorForLog(error) }, 'meaning search failed; searching by words only');
    return null;
  }
}

/**
 * Memories the meaning search proposes per query, re-read and fused with the lexical
 * candidates: its nearest few, where a paraphrase's answer is when the model finds it at
 * all; more would mostly add unrelated memories to every answer.
 */
const SEMANTIC_CANDIDATES = 8;

export function createMemoryService(deps: ServiceDeps, redaction: MemoryRedaction, search: SearchAids) {
  const { db, clock, config } = deps;
  const idempotency = createIdempotencyService(deps);

  /**
   * How many more memories the org may store (MEMORY_QUOTA_PER_ORG; 0 = no cap, Infinity),
   * with the org row locked until `ex` commits, so concurrent saves cannot overshoot.
   */
  async function quotaRoom(ex: Executor, principal: Principal): Promise<number> {
    const quota = config.MEMORY_QUOTA_PER_ORG;
    return quota > 0 ? quota - (await countOrgMemoriesLocked(ex, principal.scope)) : Infinity;
  }

  function quotaExceeded(): AppError {
    return new AppError('quota_exceeded', `This org stores its maximum of ${config.MEMORY_QUOTA_PER_ORG} memories; delete some to save more`);
  }

  /**
   * Holds back the other saves of the owners of memories of these scopes until `ex` commits
   * (their statistics totals rows, in a fixed order). Every writer of new memories takes its
   * locks in one order: the org row when a quota counts, these rows, then the rows it writes.
   */
  async function holdOwnerSaves(ex: Executor, principal: Principal, scopes: readonly MemoryScope[]): Promise<void> {
    const org = principal.scope;
    const owners = [...new Set(scopes.map((scope) => statsOwnerOf({ ...org, scope })))].sort();
    for (const owner of owners) await lockOwnerSaves(ex, org, owner);
  }

  /** Throws unless the org has room for `count` more memories (the org row stays locked until `ex` commits). */
  async function checkQuota(ex: Executor, principal: Principal, count = 1): Promise<void> {
    if ((await quotaRoom(ex, principal)) < count) throw quotaExceeded();
  }

  /**
   * Writes saves of one member in the caller's transaction: each is a new memory, or — when
   * the org de-duplicates and its content equals a live memory of the same owner and scope,
   * or an earlier save of the batch — an addition to that memory (its contexts, its tags).
   * The owners' saves are held back meanwhile (lockOwnerSaves), so concurrent equal saves
   * make one memory. Then each save's `supersedes` are marked replaced by what it became.
   */
  async function writeSaves(tx: Executor, items: readonly PendingSave[]): Promise<SaveOutcome[]> {
    const principal = items[0]!.principal;
    const org = principal.scope;
    const now = clock.now();
    const room = await quotaRoom(tx, principal);
    await holdOwnerSaves(tx, principal, items.map((item) => item.memory.scope));
    const dedupes = principal.dedupesMemories;
    const existing = dedupes ? await findDuplicateMemories(tx, org, items.map((item) => item.memory.contentKey), now) : [];
    /** Where a save of this scope and content went: an existing memory, or a new one of this batch. */
    const destinations = new Map<string, DuplicateCandidate | NewMemory>();
    for (const candidate of existing) destinations.set(`${candidate.scope} ${candidate.contentKey}`, destinations.get(`${candidate.scope} ${candidate.contentKey}`) ?? candidate);
    const fresh: NewMemory[] = [];
    const resolved: { id: string; duplicate: boolean }[] = [];
    const additions = new Map<DuplicateCandidate, { contexts: NewMemory['contexts']; tags: string[] }>();
    for (const { memory } of items) {
      const key = `${memory.scope} ${memory.contentKey}`;
      const into = dedupes ? destinations.get(key) : undefined;
      if (into === undefined) {
        fresh.push(memory);
        destinations.set(key, memory);
        resolved.push({ id: memory.id, duplicate: false });
      } else if ('source' in into) {
        // An equal save earlier in this batch: one memory for both.
        into.contexts.push(...memory.contexts.slice(0, Math.max(0, MEMORY_LIMITS.contextsPerMemory - into.contexts.length)));
        into.tags = normaliseTags([...into.tags, ...memory.tags]).slice(0, MEMORY_LIMITS.tags);
        resolved.push({ id: into.id, duplicate: true });
      } else {
        const addition = additions.get(into) ?? { contexts: [], tags: into.tags };
        addition.contexts.push(...memory.contexts);
        addition.tags = normaliseTags([...addition.tags, ...memory.tags]).slice(0, MEMORY_LIMITS.tags);
        additions.set(into, addition);
        resolved.push({ id: into.id, duplicate: true });
      }
    }
    if (fresh.length > room) throw quotaExceeded();
    const inserted = await insertMemories(tx, org, fresh);
    for (const [target, addition] of additions) {
      const room = Math.max(0, MEMORY_LIMITS.contextsPerMemory - target.contextCount);
      await addToMemory(tx, org, target, { contexts: addition.contexts.slice(0, room), tags: addition.tags, updatedAt: now });
    }
    for (const [i, item] of items.entries()) {
      if (item.supersedes.length > 0) await supersede(tx, item.principal, item.supersedes, resolved[i]!.id);
    }
    const written = new Map(inserted.map((record) => [record.id, record]));
    const others = resolved.filter(({ id }) => !written.has(id)).map(({ id }) => id);
    for (const record of await findMemoriesByIds(tx, org, others, now)) written.set(record.id, record);
    return resolved.map(({ id, duplicate }) => {
      const record = written.get(id);
      // The memory it duplicated was deleted meanwhile (deletes do not wait for saves).
      if (!record) throw new AppError('conflict', 'The memory this save duplicates was deleted while it was saved; send it again');
      return { record, duplicate };
    });
  }

  /**
   * Marks `ids` replaced by `by`: the caller's own live memories (org-shared ones: admins and
   * owners). One they cannot see is 404 like everywhere; one already replaced is 409; the
   * save itself (a duplicate of a memory it names) is 400.
   */
  async function supersede(tx: Executor, principal: Principal, ids: readonly string[], by: string): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.includes(by)) {
      throw new AppError('validation_failed', 'A memory cannot supersede itself (this save equals a memory it names)', {
        errors: [{ path: 'supersedes', message: `names ${by}, which this save is` }],
      });
    }
    const targets = unique.every((id) => isId('memory', id)) ? await lockSupersedeTargets(tx, principal.scope, unique, clock.now()) : [];
    for (const id of unique) {
      const target = targets.find((candidate) => candidate.id === id);
      if (!target) throw notFound('Memory');
      if (target.scope === 'org') requireAdmin(principal, 'supersede org-shared memories');
      if (target.supersededBy !== null) throw new AppError('conflict', `Memory ${id} is already superseded by ${target.supersededBy}`);
    }
    await markSuperseded(tx, principal.scope, unique, by);
  }

  /**
   * Saves of one member that arrive while one of theirs is being written go together in the
   * next transaction (group-commit.ts, docs/adr/0004-group-commit.md): each is answered once
   * the transaction that holds it, its contexts and its search statistics has committed, and
   * what concurrent saves of one member share is the commit and the owner's statistics rows.
   * A group that fails (the quota's last places, a bad `supersedes`) runs again one save at a time.
   */
  const saves = createGroupCommit<PendingSave, SaveOutcome>({
    run: async (items) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await inTransaction(db, (tx) => writeSaves(tx, items));
        } catch (error) {
          // Rolled back whole: nothing of it was saved, so it may run again.
          if (attempt >= DEADLOCK_ATTEMPTS || !hasErrorCode(error, 'ER_LOCK_DEADLOCK')) throw error;
        }
      }
    },
    maxItems: 64,
    weight: (item) => item.memory.content.length + item.memory.contexts.reduce((sum, context) => sum + context.snippet.length, 0),
    maxWeight: 1024 * 1024,
  });

  /**
   * Other live memories of the caller much like `record` (search for its text, at least
   * MEMORY_LIMITS.similarScore): what an agent should update or supersede rather than pile up.
   */
  async function similarTo(principal: Principal, record: MemoryRecord): Promise<SimilarMemory[]> {
    // The longest words first: a cheap stand-in for the rarest, so the statistics read covers
    // a bounded number of words; the search then keeps the rarest of them.
    const words = [...new Set(Array.from(record.content).slice(0, MEMORY_LIMITS.similarQueryChars).join('').split(/[\s"“”„«»]+/u).filter(Boolean))];
    const query = words
      .map((word, i) => ({ word, i }))
      .sort((a, b) => b.word.length - a.word.length || a.i - b.i)
      .slice(0, MEMORY_LIMITS.similarQueryWords * 2)
      .sort((a, b) => a.i - b.i)
      .map(({ word }) => word)
      .join(' ');
    const { results } = await searchMemories(db, principal.scope, {
      query,
      limit: MEMORY_LIMITS.similarCount + 1,
      now: clock.now(),
      distinctiveWords: MEMORY_LIMITS.similarQueryWords,
      // Only the best few matter, and only their ids, text and scores.
      candidates: MEMORY_LIMITS.similarCandidates,
      whole: false,
    });
    return results
      .filter((result) => result.id !== record.id && result.score >= MEMORY_LIMITS.similarScore)
      .slice(0, MEMORY_LIMITS.similarCount)
      .map((result) => ({ id: result.id, score: result.score, content: result.content }));
  }

  /**
   * A save made ready to write: the scope checked (the caller's `user` unless an admin or
   * owner asks for `org`), secrets redacted, text trimmed, tags normalised, ids minted.
   */
  function draft(principal: Principal, input: NewMemoryInput, source: MemorySource): { memory: NewMemory; redacted: number } {
    const scope = input.scope ?? 'user';
    if (scope === 'org') requireAdmin(principal, 'save org-shared memories');
    const { value: kept, redacted } = redaction.redact(principal, { content: input.content, contexts: input.contexts ?? [] });
    const now = clock.now();
    const content = kept.content.trim();
    const memory: NewMemory = {
      id: newId('memory', now),
      scope,
      source,
      content,
      contentKey: contentKeyOf(content),
      tags: normaliseTags(input.tags),
      expiresAt: expiryAt(input.expiry, now) ?? null,
      pinned: input.pinned ?? false,
      createdAt: now,
      contexts: kept.contexts.map((context) => ({
        id: newId('memoryContext', now),
        snippet: context.snippet.trim(),
        citation: context.citation ?? null,
        conversationId: context.conversation_id ?? null,
        messageId: context.message_id ?? null,
        origin: context.origin ?? 'active_conversation',
        createdAt: now,
      })),
    };
    return { memory, redacted };
  }

  /**
   * Deletes a memory the way a person means it: the newest version of a chain (one nothing
   * replaced) goes with every version before it; an older version goes alone, the versions it
   * replaced then counting as replaced by its successor. The ids of the memories it deleted.
   */
  async function deleteVersions(tx: Executor, org: OrgScope, target: { id: string; supersededBy: string | null }): Promise<string[]> {
    if (target.supersededBy === null) {
      const older = await supersededChainOf(tx, org, target.id);
      for (const id of [target.id, ...older]) await deleteOrgMemory(tx, org, id);
      return [target.id, ...older];
    }
    await relinkSuperseded(tx, org, target.id, target.supersededBy);
    await deleteOrgMemory(tx, org, target.id);
    return [target.id];
  }

  const memoryService = {
    draft,
    quotaRoom,
    holdOwnerSaves,
    quotaExceeded,

    /**
     * Saves a memory and its contexts in one transaction (`transaction`, when given), or adds
     * them to the live memory it duplicates. The server decides the source; the scope is the
     * caller's `user` unless an admin or owner asks for `org`.
     */
    async save(principal: Principal, input: NewMemoryInput, source: MemorySource, transaction?: Executor): Promise<SavedMemory> {
      const { memory, redacted } = draft(principal, input, source);
      const pending: PendingSave = { principal, memory, supersedes: input.supersedes ?? [] };
      // In the caller's transaction, everything goes with it.
      const { record, duplicate } = transaction
        ? (await writeSaves(transaction, [pending]))[0]!
        : await saves.submit(`${principal.scope.orgId}\u0000${principal.scope.userId}`, pending);
      // Committed (a caller's transaction: the caller tells once it commits).
      if (!transaction) deps.memoryWrites?.written(principal.scope, [record.id]);
      return { ...record, redacted, duplicate };
    },

    /** `save`, answered with the memories much like it. */
    async create(principal: Principal, input: NewMemoryInput, source: MemorySource): Promise<CreatedMemory> {
      const saved = await memoryService.save(principal, input, source);
      return { ...saved, similar: await similarTo(principal, saved) };
    },

    similarTo,

    /** A memory the caller may see, current or superseded; an expired one is 404. */
    async get(principal: Principal, id: string): Promise<MemoryRecord> {
      const found = isId('memory', id) ? await findMemory(db, principal.scope, id, clock.now()) : null;
      if (!found) throw notFound('Memory');
      return found;
    },

    /** A memory's whole chain of versions, newest first (a memory never superseded: itself). */
    async history(principal: Principal, id: string): Promise<MemoryRecord[]> {
      const now = clock.now();
      if (!isId('memory', id) || !(await findMemory(db, principal.scope, id, now))) throw notFound('Memory');
      const chain = await memoryChainIds(db, principal.scope, id, now);
      return findMemoriesByIds(db, principal.scope, chain.ids, now);
    },

    async list(
      principal: Principal,
      options: { limit: number; cursor?: string; tag?: string; source?: MemorySource; scope?: ScopeFilter; includeSuperseded?: boolean },
    ): Promise<MemoryListPage> {
      const page = await listMemories(db, principal.scope, {
        limit: options.limit,
        now: clock.now(),
        includeSuperseded: options.includeSuperseded ?? false,
        beforeId: options.cursor === undefined ? undefined : beforeIdCursor.decode(options.cursor, 'memory'),
        tag: options.tag?.trim(),
        source: options.source,
        filter: options.scope ?? 'all',
      });
      return { memories: page.memories, nextCursor: page.lastId === null ? null : beforeIdCursor.encode(page.lastId) };
    },

    /**
     * Memories by their words (misspelt ones corrected from the owners' own words) fused with
     * memories by meaning, unless `mode` is `lexical` or the meaning search is off for this
     * query (semantic.nearest answers null: no provider, a language it does not serve, an
     * outage).
     */
    async search(principal: Principal, options: MemorySearchOptions): Promise<MemorySearch> {
      const filter = options.scope ?? 'all';
      const semantic = options.mode === 'lexical' || !search.meaning ? null : semanticHits(search.meaning, principal.scope, filter, options.query, deps.logger);
      return searchMemories(db, principal.scope, {
        ...options,
        now: clock.now(),
        tag: options.tag?.trim(),
        filter,
        // Word lists that could not be read (main.ts logs why) leave search without corrections, never failing.
        spelling: await search.spelling().catch(() => undefined),
        semantic,
      });
    },

    /** Content, tags, expiry and/or pin. An org-shared memory can be changed by admins and owners only. */
    async update(principal: Principal, id: string, change: MemoryChange, preconditions: WritePreconditions = {}): Promise<SavedMemory> {
      if (!isId('memory', id)) throw notFound('Memory');
      const { value: content, redacted } =
        change.content === undefined ? { value: undefined, redacted: 0 } : redaction.redact(principal, change.content);
      const updated = await inTransaction(db, async (tx) => {
        const now = clock.now();
        const current = await lockVisibleMemory(tx, principal.scope, id, now);
        if (!current) throw notFound('Memory');
        if (current.scope === 'org') requireAdmin(principal, 'change org-shared memories');
        requireIfMatch(preconditions.ifMatch, memoryEtag(current));
        const expiresAt = expiryAt(change.expiry, now);
        // The vector of the old text goes in the same transaction; the new one is made after the commit.
        if (content !== undefined) await deleteMemoryVector(tx, principal.scope, id);
        return writeMemoryChange(tx, principal.scope, current, {
          content: content?.trim(),
          tags: change.tags === undefined ? undefined : normaliseTags(change.tags),
          ...(expiresAt !== undefined && { expiresAt }),
          ...(change.pinned !== undefined && { pinned: change.pinned }),
          updatedAt: now,
        });
      });
      if (content !== undefined) {
        deps.memoryWrites?.changed(principal.scope, [id]);
        deps.memoryWrites?.written(principal.scope, [id]);
      }
      return { ...updated, redacted, duplicate: false };
    },

    /**
     * Members delete their own memories; admins and owners delete any memory of their org,
     * a member's private ones included (without seeing them), and that is audited.
     */
    async remove(principal: Principal, id: string, preconditions: WritePreconditions = {}): Promise<void> {
      if (!isId('memory', id)) throw notFound('Memory');
      const deleted = await inTransaction(db, async (tx) => {
        if (hasAdminPowers(principal)) {
          const target = await lockOrgMemory(tx, principal.scope, id);
          if (!target) throw notFound('Memory');
          if (preconditions.ifMatch !== undefined) {
            // A member's private memory is deleted unseen: only `*` matches it.
            const visible = await lockVisibleMemory(tx, principal.scope, id, clock.now());
            requireIfMatch(preconditions.ifMatch, visible && memoryEtag(visible));
          }
          const deleted = await deleteVersions(tx, principal.scope, target);
          if (target.scope === 'org' || target.userId !== principal.scope.userId) {
            await recordAudit(tx, clock, principal.scope, actorOf(principal), {
              action: 'memory.delete',
              targetType: 'memory',
              targetId: id,
              counts: { memories: deleted.length },
            });
          }
          return deleted;
        }
        const target = await lockVisibleMemory(tx, principal.scope, id, clock.now());
        if (!target) throw notFound('Memory');
        if (target.scope === 'org') requireAdmin(principal, 'delete org-shared memories');
        requireIfMatch(preconditions.ifMatch, memoryEtag(target));
        return deleteVersions(tx, principal.scope, target);
      });
      deps.memoryWrites?.removed(principal.scope, deleted);
    },
  };

  return {
    ...memoryService,

    /**
     * `create` behind an Idempotency-Key: the first request with the key saves; a retry with
     * the same body answers the memory it saved (replayed), with the first answer's status;
     * another body is a 422.
     */
    async createOnce(principal: Principal, input: NewMemoryInput, source: MemorySource, key: string): Promise<IdempotentOutcome<CreatedMemory>> {
      const outcome = await idempotency.once(principal, { key, operation: 'postMemory', request: input }, {
        perform: async (tx) => {
          const memory = await memoryService.save(principal, input, source, tx);
          return { status: memory.duplicate ? 200 : 201, resultId: memory.id, result: memory };
        },
        // Only ids are kept, so a replay re-reads the memory; `redacted` is then the
        // markers it carries, which is what the first answer counted.
        replay: async (id) => {
          const memory = await memoryService.get(principal, id);
          return { ...memory, redacted: redactionMarkersIn(memory), duplicate: false };
        },
      });
      const result = { ...outcome.result, duplicate: outcome.status === 200 };
      deps.memoryWrites?.written(principal.scope, [result.id]);
      return { ...outcome, result: { ...result, similar: await similarTo(principal, result) } };
    },
  };
}
