import { recordMemoryUse, type OrgScope } from '@memory-bank/db';
import type { Principal } from '../auth/principal';
import { MEMORY_USE_LIMITS } from '../limits';
import { errorForLog } from '../logger';
import type { ServiceDeps } from './deps';

export type MemoryUseService = ReturnType<typeof createMemoryUseService>;

interface PendingUses {
  org: OrgScope;
  /** Memory id → times given since the last write. */
  uses: Map<string, number>;
  /** The latest of those times. */
  at: Date;
}

/**
 * Counts what agents are given — memories recalled into a session, read over MCP — into
 * `use_count` and `last_used_at`, which recall's ranking reads. Off the request path: uses
 * wait in the process up to MEMORY_USE_LIMITS.flushDelayMs after the first of a burst, then
 * go to the database as one UPDATE per org. Best effort: a failed write is logged and
 * dropped, never retried into a request; a process that dies loses its last second of uses.
 */
export function createMemoryUseService({ db, clock, logger }: Pick<ServiceDeps, 'db' | 'clock' | 'logger'>) {
  let pending = new Map<string, PendingUses>();
  let pendingMemories = 0;
  let timer: NodeJS.Timeout | undefined;
  /** Writes run one after another, so flush() returns once everything recorded before it is written. */
  let writing: Promise<void> = Promise.resolve();

  async function write(batches: PendingUses[]): Promise<void> {
    for (const { org, uses, at } of batches) {
      const entries = [...uses];
      for (let start = 0; start < entries.length; start += MEMORY_USE_LIMITS.idsPerStatement) {
        const chunk = new Map(entries.slice(start, start + MEMORY_USE_LIMITS.idsPerStatement));
        try {
          await recordMemoryUse(db, org, chunk, at);
        } catch (error) {
          logger.warn({ error: errorForLog(error), org_id: org.orgId, memories: chunk.size }, 'memory use not recorded');
        }
      }
    }
  }

  /** Writes every use recorded so far; resolves once they are written (or their failure logged). */
  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const batches = [...pending.values()];
    pending = new Map();
    pendingMemories = 0;
    writing = writing.then(() => write(batches));
    return writing;
  }

  return {
    /** Counts one use of each of `ids` (as many as listed) by `principal`'s org. Returns at once. */
    record(principal: Principal, ids: readonly string[]): void {
      if (ids.length === 0) return;
      const org = principal.scope;
      const at = clock.now();
      let batch = pending.get(org.orgId);
      if (!batch) pending.set(org.orgId, (batch = { org, uses: new Map(), at }));
      for (const id of ids) {
        if (!batch.uses.has(id)) pendingMemories += 1;
        batch.uses.set(id, (batch.uses.get(id) ?? 0) + 1);
      }
      if (at > batch.at) batch.at = at;
      if (pendingMemories >= MEMORY_USE_LIMITS.pendingMemories) void flush();
      else if (!timer) {
        timer = setTimeout(() => void flush(), MEMORY_USE_LIMITS.flushDelayMs);
        // Never what keeps a process alive: close() writes what waits.
        timer.unref();
      }
    },
    flush,
    /** Writes what waits (the app's close()). */
    close: flush,
  };
}
