import type { Database } from '@memory-bank/db';
import { archiveBacklog } from '@memory-bank/db/system';
import type { Clock } from '../clock';
import type { ArchiveBacklogSample } from '../observability/metrics';

/** What the archive gauges show: the ledger's backlog, and how far behind the oldest waiting event is. */
export async function sampleArchiveBacklog(db: Database, clock: Clock): Promise<ArchiveBacklogSample> {
  const backlog = await archiveBacklog(db);
  const oldest = [backlog.oldestPending, backlog.oldestUnstored].filter((at): at is Date => at !== null).map((at) => at.getTime());
  return {
    pendingEvents: backlog.pendingEvents,
    pendingBytes: backlog.pendingBytes,
    unstoredSegments: backlog.unstoredSegments,
    lagSeconds: oldest.length > 0 ? Math.max(0, (clock.now().getTime() - Math.min(...oldest)) / 1000) : 0,
  };
}
