import {
  deleteWorkstreamRecords,
  findWorkstream,
  findWorkstreamEvent,
  isId,
  listToolActions,
  listWorkstreamEvents,
  listWorkstreams,
  searchWorkstreamEvents,
  workstreamArchivePrefix,
  type EventFilter,
  type EventKind,
  type Harness,
  type LedgerEvent,
  type MemorySource,
  type ScoredLedgerEvent,
  type WorkstreamCursor,
  type WorkstreamRow,
} from '@memory-bank/db';
import type { Archiver } from '../archive/sealer';
import type { ObjectStore } from '../archive/object-store';
import { rawWorkstreamStream } from '../archive/raw';
import type { Principal } from '../auth/principal';
import { AppError, notFound } from '../errors';
import { MEMORY_LIMITS } from '../limits';
import { decodeCursor, encodeCursor } from './cursor';
import type { ServiceDeps } from './deps';
import type { MemoryService, SavedMemory } from './memory';

export interface ToolAction {
  toolUseId: string | null;
  toolName: string | null;
  outcome: 'success' | 'error' | 'no_result';
  call: LedgerEvent | null;
  result: LedgerEvent | null;
}

export type WorkstreamService = ReturnType<typeof createWorkstreamService>;

function encodeWorkstreamCursor(cursor: WorkstreamCursor): string {
  return encodeCursor({ t: cursor.lastEventAt.getTime(), id: cursor.id });
}

function decodeWorkstreamCursor(cursor: string): WorkstreamCursor {
  return decodeCursor(cursor, ({ t, id }) =>
    typeof t === 'number' && typeof id === 'string' && isId('workstream', id) ? { lastEventAt: new Date(t), id } : null,
  );
}

/** Pairs a group of tool events (same tool_use_id) into one action. */
function toAction(events: LedgerEvent[]): ToolAction {
  const call = events.find((event) => event.kind === 'tool_call') ?? null;
  const result = [...events].reverse().find((event) => event.kind === 'tool_result') ?? null;
  const first = events[0]!;
  return {
    toolUseId: first.toolUseId,
    toolName: call?.toolName ?? result?.toolName ?? null,
    outcome: result ? (result.outcome ?? 'success') : 'no_result',
    call,
    result,
  };
}

const cutChars = (text: string, max: number) => Array.from(text).slice(0, max).join('');

export function createWorkstreamService(
  { db, clock }: ServiceDeps,
  archive: { store: ObjectStore; archiver: Archiver },
  memory: MemoryService,
) {
  async function visible(principal: Principal, id: string): Promise<WorkstreamRow> {
    const found = isId('workstream', id) ? await findWorkstream(db, principal.scope, id) : null;
    if (!found) throw notFound('Workstream');
    return found;
  }

  return {
    get: visible,

    async list(principal: Principal, options: { limit: number; cursor?: string; harness?: Harness }) {
      const page = await listWorkstreams(db, principal.scope, {
        limit: options.limit,
        ...(options.cursor ? { after: decodeWorkstreamCursor(options.cursor) } : {}),
        ...(options.harness ? { harness: options.harness } : {}),
      });
      const last = page.rows.at(-1);
      return { workstreams: page.rows, nextCursor: page.hasMore && last ? encodeWorkstreamCursor({ lastEventAt: last.lastEventAt, id: last.id }) : null };
    },

    async events(principal: Principal, id: string, filter: EventFilter) {
      await visible(principal, id);
      const page = await listWorkstreamEvents(db, principal.scope, id, filter);
      return { events: page.rows, nextAfter: page.hasMore ? (page.rows.at(-1)?.sequence ?? null) : null };
    },

    async search(
      principal: Principal,
      options: { query: string; workstreamId?: string; kinds?: EventKind[]; limit: number },
    ): Promise<ScoredLedgerEvent[]> {
      // A malformed or foreign workstream filter simply matches nothing.
      if (options.workstreamId !== undefined && !isId('workstream', options.workstreamId)) return [];
      return searchWorkstreamEvents(db, principal.scope, options);
    },

    async actions(principal: Principal, id: string, options: { after?: number; limit: number }) {
      await visible(principal, id);
      const page = await listToolActions(db, principal.scope, id, options);
      const actions = page.groups.filter((group) => group.length > 0).map(toAction);
      const lastFirst = page.groups.at(-1)?.[0]?.sequence;
      return { actions, nextAfter: page.hasMore && lastFirst !== undefined ? lastFirst : null };
    },

    async raw(principal: Principal, id: string): Promise<ReadableStream<Uint8Array>> {
      const workstream = await visible(principal, id);
      return rawWorkstreamStream(db, archive.store, principal.scope, workstream);
    },

    /** A memory citing one event: the bridge from transcript to memory. */
    async remember(
      principal: Principal,
      id: string,
      sequence: number,
      input: { content?: string; tags?: string[] },
      source: MemorySource,
    ): Promise<SavedMemory> {
      await visible(principal, id);
      const event = await findWorkstreamEvent(db, principal.scope, id, sequence);
      if (!event) throw notFound('Event');
      const content = input.content ?? cutChars(event.content.trim(), MEMORY_LIMITS.contentChars);
      if (content.trim() === '') {
        throw new AppError('validation_failed', 'This event has no text to remember; send content', {
          errors: [{ path: 'content', message: 'Required: the event has no text' }],
        });
      }
      const snippet = cutChars(event.content.trim(), MEMORY_LIMITS.snippetChars) || `${event.event} (${event.kind})`;
      return memory.create(
        principal,
        {
          content,
          ...(input.tags ? { tags: input.tags } : {}),
          contexts: [
            {
              snippet,
              citation: { workstream_id: id, sequence: event.sequence, event_id: event.eventId },
              conversation_id: id,
              message_id: event.eventId,
              origin: 'searched_conversation',
            },
          ],
        },
        source,
      );
    },

    /**
     * Deletes the ledger rows in one transaction (gone from search at commit), then the
     * archived objects; objects that cannot be deleted now are retried in the background.
     */
    async remove(principal: Principal, id: string): Promise<void> {
      const deleted = isId('workstream', id) ? await deleteWorkstreamRecords(db, principal.scope, id, clock.now()) : null;
      if (!deleted) throw notFound('Workstream');
      await archive.archiver.purgeObjects(deleted.objectKeys, [workstreamArchivePrefix(principal.scope.orgId, id)]);
    },
  };
}
