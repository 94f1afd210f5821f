import {
  importedKeys,
  inTransaction,
  insertMemories,
  listMemories,
  lockOrg,
  lockSupersedeTargets,
  markSuperseded,
  memoryChainIds,
  type NewImportedMemory,
  type MemoryRecord,
  type MemoryScope,
  type ScopeFilter,
} from '@memory-bank/db';
import type { Principal } from '../auth/principal';
import { AppError, isServerFault } from '../errors';
import { canonicalJson, sha256Hex } from '../hooks/canonical';
import { TRANSFER_LIMITS } from '../limits';
import { actorOf, recordAudit } from './audit';
import type { ServiceDeps } from './deps';
import { normaliseTags, type MemoryService, type NewMemoryInput } from './memory';

/** Where an exported memory stood in its chain of versions (its export's ids). */
export interface ExportedChain {
  id: string;
  supersededBy: string | null;
}

/** One line of an import: a save (with its place in a chain, for our own export's lines), or why it cannot be one. */
export type ImportLine = { number: number; input: NewMemoryInput; chain?: ExportedChain } | { number: number; error: AppError };

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

/** What a chunk's line comes to: saved, saved before, or refused. */
type LineOutcome = { line: number; imported: true } | { line: number; skipped: true } | { line: number; error: AppError };

/** A line of a chunk, ready to write or already refused. */
type PendingLine = { number: number; input: NewMemoryInput; key: string; chain?: ExportedChain } | { number: number; error: AppError };

/**
 * The import key of a save (schema/memory.ts `import_key`): SHA-256 of the save as it will be
 * stored before redaction — text trimmed, tags normalised, defaults filled — so lines asking
 * for the same save share it however they are spelt.
 */
function importKeyOf(input: NewMemoryInput): string {
  return sha256Hex(
    canonicalJson({
      scope: input.scope ?? 'user',
      content: input.content.trim(),
      tags: normaliseTags(input.tags),
      contexts: (input.contexts ?? []).map((context) => ({
        snippet: context.snippet.trim(),
        citation: context.citation ?? null,
        conversation_id: context.conversation_id ?? null,
        message_id: context.message_id ?? null,
        origin: context.origin ?? 'active_conversation',
      })),
    }),
  );
}

/** A refusal of one line (its scope, the quota); anything else ends the import. */
function lineRefusal(error: unknown): AppError {
  if (!(error instanceof AppError) || isServerFault(error)) throw error;
  return error;
}

export type MemoryTransferService = ReturnType<typeof createMemoryTransferService>;

/**
 * Export and import of a caller's memories (docs/api.md#export-and-import). An export is
 * what the caller can list, read page by page; an import saves its lines as the memory
 * service would (limits, redaction, quota) in chunks of TRANSFER_LIMITS.importChunkLines,
 * one transaction each, and each line once: a line whose import key its owner already has
 * is skipped, however long ago it was imported.
 */
export function createMemoryTransferService(deps: ServiceDeps, memory: MemoryService) {
  const { db, clock } = deps;

  /**
   * Writes one chunk in one transaction, locking in the order saves do (memory.holdOwnerSaves):
   * the org row when a quota counts, the owners' statistics totals, and then, without a quota,
   * the org row too (so concurrent imports of one owner cannot both insert a key, even before
   * the owner has statistics). The keys already imported are skipped, the rest inserted up to
   * the quota's room.
   */
  async function writeChunk(principal: Principal, chunk: PendingLine[], imported: Map<string, string>): Promise<LineOutcome[]> {
    const outcomes = new Map<number, LineOutcome>();
    const drafts: { number: number; memory: NewImportedMemory; chain?: ExportedChain }[] = [];
    const keysInChunk = new Set<string>();
    for (const line of chunk) {
      if ('error' in line) {
        outcomes.set(line.number, { line: line.number, error: line.error });
      } else if (keysInChunk.has(line.key)) {
        outcomes.set(line.number, { line: line.number, skipped: true });
      } else {
        try {
          const { memory: draft } = memory.draft(principal, line.input, 'api');
          keysInChunk.add(line.key);
          drafts.push({ number: line.number, memory: { ...draft, importKey: line.key }, ...(line.chain && { chain: line.chain }) });
        } catch (error) {
          outcomes.set(line.number, { line: line.number, error: lineRefusal(error) });
        }
      }
    }
    if (drafts.length > 0) {
      await inTransaction(db, async (tx) => {
        let room = await memory.quotaRoom(tx, principal);
        await memory.holdOwnerSaves(tx, principal, drafts.map((d) => d.memory.scope));
        if (room === Infinity) await lockOrg(tx, principal.scope);
        const known = await importedKeys(
          tx,
          principal.scope,
          drafts.map((d) => d.memory.importKey),
        );
        const fresh: NewImportedMemory[] = [];
        for (const { number, memory: draft, chain } of drafts) {
          const before = known.get(draft.importKey);
          if (chain) imported.set(chain.id, before ?? draft.id);
          if (before !== undefined) {
            outcomes.set(number, { line: number, skipped: true });
          } else if (room <= 0) {
            outcomes.set(number, { line: number, error: memory.quotaExceeded() });
          } else {
            room -= 1;
            fresh.push(draft);
            outcomes.set(number, { line: number, imported: true });
          }
        }
        await insertMemories(tx, principal.scope, fresh);
        return fresh.map((draft) => draft.id);
      }).then((ids) => deps.memoryWrites?.written(principal.scope, ids));
    }
    return chunk.map((line) => outcomes.get(line.number)!);
  }

  /**
   * Links the imported versions of a chain as their export had them: each memory replaced by
   * the one its line names in `superseded_by`, when both lines are in this import (imported
   * now or before). A memory already replaced keeps what replaced it.
   */
  async function linkVersions(principal: Principal, links: readonly ExportedChain[], imported: ReadonlyMap<string, string>): Promise<void> {
    const pairs = links.flatMap((link) => {
      const id = imported.get(link.id);
      const by = link.supersededBy === null ? undefined : imported.get(link.supersededBy);
      return id && by && id !== by ? [{ id, by }] : [];
    });
    if (pairs.length === 0) return;
    await inTransaction(db, async (tx) => {
      const now = clock.now();
      const current = await lockSupersedeTargets(tx, principal.scope, pairs.map((pair) => pair.id), now);
      for (const { id, by } of pairs) {
        if (!current.some((target) => target.id === id && target.supersededBy === null)) continue;
        // A file whose lines replace each other in a circle links no circle: `id` is the
        // newest of its chain, so it must not be where `by`'s chain ends.
        if ((await memoryChainIds(tx, principal.scope, by, now)).head === id) continue;
        await markSuperseded(tx, principal.scope, [id], by);
      }
    });
  }

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
        // Superseded versions too (with superseded_by), so an import can rebuild the chains.
        const page = await listMemories(db, principal.scope, { limit: TRANSFER_LIMITS.exportPageSize, beforeId, filter, now: clock.now(), includeSuperseded: true });
        count += page.memories.length;
        if (page.memories.length > 0) yield page.memories;
        if (page.lastId === null) break;
        beforeId = page.lastId;
      }
      await audit(principal, 'memory.export', { memories: count });
    },

    async import(principal: Principal, lines: AsyncIterable<ImportLine>, options: { scope?: MemoryScope; signal: AbortSignal; onProgress?: (summary: Readonly<ImportSummary>) => void }): Promise<ImportSummary> {
      const summary: ImportSummary = { imported: 0, skipped: 0, failed: 0, skippedLines: [], failures: [], complete: true, lastLine: 0 };
      const record = (outcome: LineOutcome) => {
        summary.lastLine = outcome.line;
        if ('imported' in outcome) {
          summary.imported += 1;
        } else if ('skipped' in outcome) {
          summary.skipped += 1;
          if (summary.skippedLines.length < TRANSFER_LIMITS.reportedLines) summary.skippedLines.push(outcome.line);
        } else {
          const { code, detail, details: extra } = outcome.error;
          summary.failed += 1;
          if (summary.failures.length < TRANSFER_LIMITS.reportedLines) {
            summary.failures.push({ line: outcome.line, code, detail, ...(extra.errors ? { errors: extra.errors } : {}) });
          }
        }
      };
      let chunk: PendingLine[] = [];
      let chunkBytes = 0;
      /** Export id → the memory its line is here (imported now or before), and the chains to link once all are in. */
      const imported = new Map<string, string>();
      const links: ExportedChain[] = [];
      const flush = async () => {
        for (const pending of chunk) if ('key' in pending && pending.chain?.supersededBy) links.push(pending.chain);
        for (const outcome of await writeChunk(principal, chunk, imported)) record(outcome);
        chunk = [];
        chunkBytes = 0;
        options.onProgress?.(summary);
      };
      for await (const line of lines) {
        if ('error' in line) {
          chunk.push(line);
        } else {
          const input = options.scope ? { ...line.input, scope: options.scope } : line.input;
          chunk.push({ number: line.number, input, key: importKeyOf(input), ...(line.chain && { chain: line.chain }) });
          chunkBytes += Buffer.byteLength(input.content) + canonicalJson(input.contexts ?? []).length;
        }
        if (chunk.length >= TRANSFER_LIMITS.importChunkLines || chunkBytes >= TRANSFER_LIMITS.importChunkBytes || options.signal.aborted) await flush();
        if (options.signal.aborted) {
          summary.complete = false;
          break;
        }
      }
      if (chunk.length > 0) await flush();
      await linkVersions(principal, links, imported);
      await audit(principal, 'memory.import', { imported: summary.imported, skipped: summary.skipped, failed: summary.failed });
      return summary;
    },
  };
}
