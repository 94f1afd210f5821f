import { sql } from 'drizzle-orm';
import type { Database } from '../driver';

/** The readiness ping: true when the database answers a trivial statement. */
export async function databaseReachable(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`SELECT 1`);
    return true;
  } catch {
    return false;
  }
}
