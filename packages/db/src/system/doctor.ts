import { and, asc, count, eq, inArray, isNotNull, isNull, min, sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../driver';
import { archiveDeletions, archiveSegments, orgs, workstreamEvents, workstreams } from '../schema';
import { claimColumns } from '../archive-layout';

/** The FULLTEXT indexes the schema relies on (they live in custom migrations). */
export const FULLTEXT_INDEXES = [
  { table: 'memory', index: 'ft_memory_content', column: 'content' },
  { table: 'memory', index: 'ft_memory_search_terms', column: 'search_terms' },
  { table: 'workstream_events', index: 'ft_workstream_events_search_terms', column: 'search_terms' },
] as const;

export async function missingFulltextIndexes(ex: Executor): Promise<(typeof FULLTEXT_INDEXES)[number][]> {
  const rows = await selectRows<{ t: string; i: string }>(
    ex,
    sql`SELECT TABLE_NAME AS t, INDEX_NAME AS i FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND INDEX_TYPE = 'FULLTEXT'`,
  );
  const present = new Set(rows.map((row) => `${row.t}.${row.i}`));
  return FULLTEXT_INDEXES.filter((index) => !present.has(`${index.table}.${index.index}`));
}

export async function createFulltextIndex(ex: Executor, index: (typeof FULLTEXT_INDEXES)[number]): Promise<void> {
  await ex.execute(sql.raw(`CREATE FULLTEXT INDEX \`${index.index}\` ON \`${index.table}\` (\`${index.column}\`)`));
}

export interface ArchiveBacklog {
  pendingEvents: number;
  /** Payload bytes of the pending events. */
  pendingBytes: number;
  oldestPending: Date | null;
  unstoredSegments: number;
  oldestUnstored: Date | null;
  failingSegments: number;
  pendingDeletions: number;
  failingDeletions: number;
}

export async function archiveBacklog(ex: Executor): Promise<ArchiveBacklog> {
  const [pending] = await ex
    .select({
      events: sql<string>`COALESCE(SUM(${workstreams.pendingCount}), 0)`,
      bytes: sql<string>`COALESCE(SUM(${workstreams.pendingBytes}), 0)`,
      oldest: min(workstreams.pendingSince),
    })
    .from(workstreams)
    .where(isNotNull(workstreams.pendingSince));
  const [unstored] = await ex
    .select({ segments: count(), oldest: min(archiveSegments.createdAt), failing: sql<string>`COALESCE(SUM(${archiveSegments.attempts} > 0), 0)` })
    .from(archiveSegments)
    .where(isNull(archiveSegments.uploadedAt));
  const [deletions] = await ex
    .select({ pending: count(), failing: sql<string>`COALESCE(SUM(${archiveDeletions.attempts} > 0), 0)` })
    .from(archiveDeletions);
  return {
    pendingEvents: Number(pending?.events ?? 0),
    pendingBytes: Number(pending?.bytes ?? 0),
    oldestPending: pending?.oldest ?? null,
    unstoredSegments: unstored?.segments ?? 0,
    oldestUnstored: unstored?.oldest ?? null,
    failingSegments: Number(unstored?.failing ?? 0),
    pendingDeletions: deletions?.pending ?? 0,
    failingDeletions: Number(deletions?.failing ?? 0),
  };
}

/** Stored segments, a page at a time (doctor walks them all). */
export async function storedSegmentPage(ex: Executor, options: { afterKey: string; limit: number }) {
  return ex
    .select({ ...claimColumns, sha256: archiveSegments.sha256 })
    .from(archiveSegments)
    .where(and(isNotNull(archiveSegments.uploadedAt), sql`${archiveSegments.key} > ${options.afterKey}`))
    .orderBy(asc(archiveSegments.key))
    .limit(options.limit);
}

/** Which of these object keys the ledger records as segments. */
export async function recordedSegmentKeys(ex: Executor, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await ex.select({ key: archiveSegments.key }).from(archiveSegments).where(inArray(archiveSegments.key, keys));
  return new Set(rows.map((row) => row.key));
}

/** Which of these object keys wait in the deletion queue (deleted from the ledger; the object goes next). */
export async function queuedForDeletion(ex: Executor, keys: readonly string[]): Promise<Set<string>> {
  const queued = new Set<string>();
  for (let start = 0; start < keys.length; start += 1000) {
    const rows = await ex
      .select({ key: archiveDeletions.key })
      .from(archiveDeletions)
      .where(inArray(archiveDeletions.key, keys.slice(start, start + 1000)));
    for (const row of rows) queued.add(row.key);
  }
  return queued;
}

/** Which of these workstream / org ids still exist. */
export async function existingWorkstreams(ex: Executor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await ex.select({ id: workstreams.id }).from(workstreams).where(inArray(workstreams.id, ids));
  return new Set(rows.map((row) => row.id));
}

export async function existingOrgs(ex: Executor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await ex.select({ id: orgs.id }).from(orgs).where(inArray(orgs.id, ids));
  return new Set(rows.map((row) => row.id));
}

/** Events that point at a segment the ledger does not record. */
export async function eventsWithUnknownSegment(ex: Executor): Promise<number> {
  const [row] = await ex
    .select({ n: count() })
    .from(workstreamEvents)
    .leftJoin(archiveSegments, eq(archiveSegments.key, workstreamEvents.segmentKey))
    .where(and(isNotNull(workstreamEvents.segmentKey), isNull(archiveSegments.key)));
  return row?.n ?? 0;
}

export async function dropFulltextIndex(ex: Executor, index: (typeof FULLTEXT_INDEXES)[number]): Promise<void> {
  await ex.execute(sql.raw(`DROP INDEX \`${index.index}\` ON \`${index.table}\``));
}
