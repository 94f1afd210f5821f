import type { Database } from '../driver';
import { orgs } from '../schema';
import { orgScopeOf, type OrgScope } from '../scope';

/**
 * Every org, in id order, for the embedding backfill (apps/api/src/embeddings/backfill.ts):
 * it then reads and writes each org's memories and vectors through org-scoped queries.
 */
export async function orgsToEmbed(db: Database): Promise<OrgScope[]> {
  const rows = await db.select({ id: orgs.id }).from(orgs);
  return rows.sort((a, b) => (a.id < b.id ? -1 : 1)).map((row) => orgScopeOf(row));
}
