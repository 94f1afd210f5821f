import type { Database } from '../driver';
import { backfillContentKeys } from '../queries/memory';
import { orgs } from '../schema';
import { orgScopeOf } from '../scope';

/** Memories keyed per statement while the backfill runs. */
const BATCH = 500;

/**
 * Gives every memory saved before content keys existed its key (duplicate detection finds
 * them then), org by org, in the background at start-up. What is keyed stays keyed; a run
 * over an org with nothing left costs one indexed read. Returns how many it keyed.
 */
export async function backfillMemoryContentKeys(db: Database): Promise<number> {
  let keyed = 0;
  for (const { id } of await db.select({ id: orgs.id }).from(orgs)) {
    for (;;) {
      const done = await backfillContentKeys(db, orgScopeOf({ id }), BATCH);
      keyed += done;
      if (done < BATCH) break;
    }
  }
  return keyed;
}
