import { bigint, int, mysqlTable, primaryKey, varchar } from 'drizzle-orm/mysql-core';
import { idColumn } from './columns';
import { orgIdColumn } from './orgs';

/**
 * Search statistics of each owner of memories (a user for private memories, the org for
 * shared ones), so ranking reads the owner's own document frequencies and never another
 * tenant's (docs/architecture.md#search). Keyed org first, like every tenant table: a
 * shard by org holds its rows whole.
 *
 * `term` is a family letter and a word (`wdeploy`, `sdeploy`, `porder`; see
 * search/memory-terms.ts); the empty term holds the owner's totals: `docs` memories and
 * `tokens` words in all. Kept up to date in the same statement path as each memory save,
 * change and delete (search/stats.ts).
 */
export const memoryTermStats = mysqlTable(
  'memory_term_stats',
  {
    orgId: orgIdColumn(),
    /** The user id (private memories) or the org id (org-shared ones). */
    ownerId: idColumn('owner_id').notNull(),
    term: varchar('term', { length: 80 }).notNull(),
    /** Memories holding the term. */
    docs: int('docs').notNull(),
    /** Occurrences of the term in all of them. */
    tokens: bigint('tokens', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.ownerId, t.term] })],
);
