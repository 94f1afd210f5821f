import {
  countOrgMemoriesLocked,
  createGroupCommit,
  deleteOrgMemory,
  findMemory,
  hasErrorCode,
  inTransaction,
  insertMemories,
  isId,
  listMemories,
  lockOrgMemory,
  lockVisibleMemory,
  newId,
  searchMemories,
  writeMemoryChange,
  type Executor,
  type MemoryScope,
  type ScopeFilter,
  type Citation,
  type ContextOrigin,
  type MemoryRecord,
  type MemorySource,
  type NewMemory,
  type ScoredMemoryRecord,
} from '@memory-bank/db';
import { hasAdminPowers, requireAdmin, type Principal } from '../auth/principal';
import { AppError, notFound } from '../errors';
import { actorOf, recordAudit } from './audit';
import { beforeIdCursor } from './cursor';
import type { ServiceDeps } from './deps';
import { createIdempotencyService, type IdempotentOutcome } from './idempotency';
import { redactionMarkersIn, type MemoryRedaction } from './memory-redaction';
import { memoryEtag, requireIfMatch } from './preconditions';

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
}

export interface MemoryChange {
  content?: string;
  tags?: string[];
}

/** A memory as saved, with how many secrets in its content and contexts were redacted. */
export type SavedMemory = MemoryRecord & { redacted: number };

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

export function createMemoryService(deps: ServiceDeps, redaction: MemoryRedaction) {
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

  /** Throws unless the org has room for `count` more memories (the org row stays locked until `ex` commits). */
  async function checkQuota(ex: Executor, principal: Principal, count = 1): Promise<void> {
    if ((await quotaRoom(ex, principal)) < count) throw quotaExceeded();
  }

  /**
   * Saves of one member that arrive while one of theirs is being written go together in the
   * next transaction (group-commit.ts, docs/adr/0004-group-commit.md): each is answered once
   * the transaction that holds it, its contexts and its search statistics has committed, and
   * what concurrent saves of one member share is the commit and the owner's statistics rows.
   * A group that fails (the quota's last places, say) runs again one save at a time.
   */
  const saves = createGroupCommit<{ principal: Principal; memory: NewMemory }, MemoryRecord>({
    run: async (items) => {
      const principal = items[0]!.principal;
      for (let attempt = 1; ; attempt++) {
        try {
          return await inTransaction(db, async (tx) => {
            await checkQuota(tx, principal, items.length);
            return insertMemories(tx, principal.scope, items.map((item) => item.memory));
          });
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
   * A save made ready to write: the scope checked (the caller's `user` unless an admin or
   * owner asks for `org`), secrets redacted, text trimmed, tags normalised, ids minted.
   */
  function draft(principal: Principal, input: NewMemoryInput, source: MemorySource): { memory: NewMemory; redacted: number } {
    const scope = input.scope ?? 'user';
    if (scope === 'org') requireAdmin(principal, 'save org-shared memories');
    const { value: kept, redacted } = redaction.redact(principal, { content: input.content, contexts: input.contexts ?? [] });
    const now = clock.now();
    const memory: NewMemory = {
      id: newId('memory', now),
      scope,
      source,
      content: kept.content.trim(),
      tags: normaliseTags(input.tags),
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

  const memoryService = {
    draft,
    quotaRoom,
    quotaExceeded,

    /**
     * Saves a memory and its contexts in one transaction (`transaction`, when given).
     * The server decides the source; the scope is the caller's `user` unless an admin or
     * owner asks for `org`.
     */
    async create(principal: Principal, input: NewMemoryInput, source: MemorySource, transaction?: Executor): Promise<SavedMemory> {
      const { memory, redacted } = draft(principal, input, source);
      // In the caller's transaction, everything goes with it.
      if (transaction) {
        await checkQuota(transaction, principal);
        const [saved] = await insertMemories(transaction, principal.scope, [memory]);
        return { ...saved!, redacted };
      }
      const { orgId, userId } = principal.scope;
      return { ...(await saves.submit(`${orgId}\u0000${userId}`, { principal, memory })), redacted };
    },

    async get(principal: Principal, id: string): Promise<MemoryRecord> {
      const found = isId('memory', id) ? await findMemory(db, principal.scope, id) : null;
      if (!found) throw notFound('Memory');
      return found;
    },

    async list(
      principal: Principal,
      options: { limit: number; cursor?: string; tag?: string; source?: MemorySource; scope?: ScopeFilter },
    ): Promise<MemoryListPage> {
      const page = await listMemories(db, principal.scope, {
        limit: options.limit,
        beforeId: options.cursor === undefined ? undefined : beforeIdCursor.decode(options.cursor, 'memory'),
        tag: options.tag?.trim(),
        source: options.source,
        filter: options.scope ?? 'all',
      });
      return { memories: page.memories, nextCursor: page.lastId === null ? null : beforeIdCursor.encode(page.lastId) };
    },

    search(
      principal: Principal,
      options: { query: string; limit: number; tag?: string; source?: MemorySource; scope?: ScopeFilter },
    ): Promise<ScoredMemoryRecord[]> {
      return searchMemories(db, principal.scope, { ...options, tag: options.tag?.trim(), filter: options.scope ?? 'all' });
    },

    /** Content and/or tags. An org-shared memory can be changed by admins and owners only. */
    async update(principal: Principal, id: string, change: MemoryChange, preconditions: WritePreconditions = {}): Promise<SavedMemory> {
      if (!isId('memory', id)) throw notFound('Memory');
      const { value: content, redacted } =
        change.content === undefined ? { value: undefined, redacted: 0 } : redaction.redact(principal, change.content);
      const updated = await inTransaction(db, async (tx) => {
        const current = await lockVisibleMemory(tx, principal.scope, id);
        if (!current) throw notFound('Memory');
        if (current.scope === 'org') requireAdmin(principal, 'change org-shared memories');
        requireIfMatch(preconditions.ifMatch, memoryEtag(current));
        return writeMemoryChange(tx, principal.scope, current, {
          content: content?.trim(),
          tags: change.tags === undefined ? undefined : normaliseTags(change.tags),
          updatedAt: clock.now(),
        });
      });
      return { ...updated, redacted };
    },

    /**
     * Members delete their own memories; admins and owners delete any memory of their org,
     * a member's private ones included (without seeing them), and that is audited.
     */
    async remove(principal: Principal, id: string, preconditions: WritePreconditions = {}): Promise<void> {
      if (!isId('memory', id)) throw notFound('Memory');
      await inTransaction(db, async (tx) => {
        if (hasAdminPowers(principal)) {
          const target = await lockOrgMemory(tx, principal.scope, id);
          if (!target) throw notFound('Memory');
          if (preconditions.ifMatch !== undefined) {
            // A member's private memory is deleted unseen: only `*` matches it.
            const visible = await lockVisibleMemory(tx, principal.scope, id);
            requireIfMatch(preconditions.ifMatch, visible && memoryEtag(visible));
          }
          await deleteOrgMemory(tx, principal.scope, id);
          if (target.scope === 'org' || target.userId !== principal.scope.userId) {
            await recordAudit(tx, clock, principal.scope, actorOf(principal), {
              action: 'memory.delete',
              targetType: 'memory',
              targetId: id,
              counts: { memories: 1 },
            });
          }
          return;
        }
        const target = await lockVisibleMemory(tx, principal.scope, id);
        if (!target) throw notFound('Memory');
        if (target.scope === 'org') requireAdmin(principal, 'delete org-shared memories');
        requireIfMatch(preconditions.ifMatch, memoryEtag(target));
        await deleteOrgMemory(tx, principal.scope, id);
      });
    },
  };

  return {
    ...memoryService,

    /**
     * `create` behind an Idempotency-Key: the first request with the key saves; a retry with
     * the same body answers the memory it saved (replayed); another body is a 422.
     */
    createOnce(principal: Principal, input: NewMemoryInput, source: MemorySource, key: string): Promise<IdempotentOutcome<SavedMemory>> {
      return idempotency.once(principal, { key, operation: 'postMemory', request: input }, {
        perform: async (tx) => {
          const memory = await memoryService.create(principal, input, source, tx);
          return { status: 201, resultId: memory.id, result: memory };
        },
        // Only ids are kept, so a replay re-reads the memory; `redacted` is then the
        // markers it carries, which is what the first answer counted.
        replay: async (id) => {
          const memory = await memoryService.get(principal, id);
          return { ...memory, redacted: redactionMarkersIn(memory) };
        },
      });
    },
  };
}
