import { storedSegments, unarchivedEvents, type Database, type OwnerScope, type WorkstreamRow } from '@memory-bank/db';
import type { ObjectStore } from './object-store';
import { envelopeLine } from './segment';

const PAGE = 100;

/**
 * A workstream's complete JSONL, read as its owner: stored segments straight from object storage, and the
 * lines of events whose segment is not stored yet built from the ledger, in sequence
 * order. The first chunk is read before this resolves, so an unreachable store is an
 * error the route can answer with 503, not a broken 200.
 */
export async function rawWorkstreamStream(
  db: Database,
  store: ObjectStore,
  scope: OwnerScope,
  workstream: WorkstreamRow,
): Promise<ReadableStream<Uint8Array>> {
  const segments = await storedSegments(db, scope, workstream.id);
  async function* chunks(): AsyncGenerator<Uint8Array> {
    let cursor = 0;
    const pending = async function* (through: number) {
      for (;;) {
        const page = await unarchivedEvents(db, scope, workstream.id, { after: cursor, through, limit: PAGE });
        if (page.length === 0) return;
        yield Buffer.from(page.map(envelopeLine).join(''), 'utf8');
        cursor = page.at(-1)!.sequence;
        if (page.length < PAGE) return;
      }
    };
    for (const segment of segments) {
      yield* pending(segment.firstSequence - 1);
      const body = await store.get(segment.key);
      if (!body) throw new Error(`archived segment ${segment.key} is missing from object storage`);
      yield body;
      cursor = segment.lastSequence;
    }
    yield* pending(Number.MAX_SAFE_INTEGER);
  }

  const iterator = chunks();
  const first = await iterator.next();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(first.value);
    },
    async pull(controller) {
      if (first.done) return;
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
}
