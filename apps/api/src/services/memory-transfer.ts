import { inTransaction, listMemories, type MemoryRecord, type MemoryScope, type ScopeFilter } from '@memory-bank/db';
import type { Principal } from '../auth/principal';
import { AppError } from '../errors';
import { canonicalJson, sha256Hex } from '../hooks/canonical';
import { TRANSFER_LIMITS } from '../limits';
import { actorOf, recordAudit } from './audit';
import type { ServiceDeps } from './deps';
import { createIdempotencyService } from './idempotency';
import type { MemoryService, NewMemoryInput } from './memory';

/** One line of an import: a save, or why it cannot be one. */
export type ImportLine = { number: number; input: NewMemoryInput } | { number: number; error: AppError };

export interface ImportFailure {
  line: number;
  code: AppError['code'];
  detail: string;
  errors?: { path: string; message: string }[];
}

export interface ImportSummary {
  imported: number;
  skipped: number;
  failed: number;
  /** Lines already imported before (each listed up to TRANSFER_LIMITS.reportedLines). */
  skippedLines: number[];
  failures: ImportFailure[];
  /** False when the import stopped at its deadline: send the file again, imported lines are skipped. */
  complete: boolean;
  /** The last line read. */
  lastLine: number;
}

/** The operation name a line's key is claimed under: never the same request as a POST /v1/memory. */
const IMPORT_OPERATION = 'postMemoryImport';

export type MemoryTransferService = ReturnType<typeof createMemoryTransferService>;

/**
 * Export and import of a caller's memories (docs/api.md#export-and-import). An export is
 * what the caller can list, read page by page; an import saves line by line through the
 * memory service (limits, redaction, quota), each line once: its key is the hash of the
 * save it asks for, claimed with the Idempotency-Key machinery, so a file imported again
 * within IDEMPOTENCY_LIMITS.keyTtlMs skips the lines it already saved.
 */
export function createMemoryTransferService(deps: ServiceDeps, memory: MemoryService) {
  const { db, clock } = deps;
  const idempotency = createIdempotencyService(deps);

  async function audit(principal: Principal, action: 'memory.export' | 'memory.import', counts: Record<string, number>): Promise<void> {
    await inTransaction(db, (tx) =>
      recordAudit(tx, clock, principal.scope, actorOf(principal), { action, targetType: 'user', targetId: principal.scope.userId, counts }),
    );
  }

  return {
    /** The memories `filter` selects that the caller can read, newest first, a page at a time; audited once all are read. */
    async *exportPages(principal: Principal, filter: ScopeFilter): AsyncGenerator<MemoryRecord[]> {
      let beforeId: string | undefined;
      let count = 0;
      for (;;) {
        const page = await listMemories(db, principal.scope, { limit: TRANSFER_LIMITS.exportPageSize, beforeId, filter });
        count += page.memories.length;
        if (page.memories.length > 0) yield page.memories;
        if (page.lastId === null) break;
        beforeId = page.lastId;
      }
      await audit(principal, 'memory.export', { memories: count });
    },

    async import(principal: Principal, lines: AsyncIterable<ImportLine>, options: { scope?: MemoryScope; signal: AbortSignal }): Promise<ImportSummary> {
      const summary: ImportSummary = { imported: 0, skipped: 0, failed: 0, skippedLines: [], failures: [], complete: true, lastLine: 0 };
      const fail = (line: number, error: AppError) => {
        summary.failed += 1;
        if (summary.failures.length < TRANSFER_LIMITS.reportedLines) {
          summary.failures.push({ line, code: error.code, detail: error.detail, ...(error.options.errors ? { errors: error.options.errors } : {}) });
        }
      };
      for await (const line of lines) {
        summary.lastLine = line.number;
        if ('error' in line) {
          fail(line.number, line.error);
        } else {
          const input = options.scope ? { ...line.input, scope: options.scope } : line.input;
          const key = sha256Hex(`${IMPORT_OPERATION}\n${canonicalJson(input)}`);
          try {
            const outcome = await idempotency.once(principal, { key, operation: IMPORT_OPERATION, request: input }, {
              perform: async (tx) => {
                const saved = await memory.create(principal, input, 'api', tx);
                return { status: 201, resultId: saved.id, result: saved.id };
              },
              // Only that it was saved before matters, not the memory as it is now.
              replay: async (id) => id,
            });
            if (outcome.replayed) {
              summary.skipped += 1;
              if (summary.skippedLines.length < TRANSFER_LIMITS.reportedLines) summary.skippedLines.push(line.number);
            } else {
              summary.imported += 1;
            }
          } catch (error) {
            // A refusal of this line (its scope, the quota); anything else ends the import.
            if (!(error instanceof AppError) || error.status >= 500) throw error;
            fail(line.number, error);
          }
        }
        if (options.signal.aborted) {
          summary.complete = false;
          break;
        }
      }
      await audit(principal, 'memory.import', { imported: summary.imported, skipped: summary.skipped, failed: summary.failed });
      return summary;
    },
  };
}
