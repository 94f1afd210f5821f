import { char, index, mysqlTable, primaryKey, smallint } from 'drizzle-orm/mysql-core';
import { idColumn, timestamp } from './columns';
import { orgIdColumn, userIdColumn } from './orgs';

/**
 * One row per `Idempotency-Key` a caller used on a write, for a day. Keyed org first (the
 * planned sharding key), then user: a key is the caller's own, never seen across tenants.
 * It holds hashes and the id of what the first request created — never a body — so every
 * delete path (memory, member purge, org) leaves no content behind here.
 */
export const idempotencyKeys = mysqlTable(
  'idempotency_keys',
  {
    orgId: orgIdColumn(),
    userId: userIdColumn(),
    /** SHA-256 of the client's key, hex: fixed width, compared byte for byte whatever the collation. */
    keyHash: char('key_hash', { length: 64 }).notNull(),
    /** SHA-256 of the operation and its canonical request body. */
    requestHash: char('request_hash', { length: 64 }).notNull(),
    /** The first answer's status and what it created; set before the row commits. */
    status: smallint('status', { unsigned: true }),
    resultId: idColumn('result_id'),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId, t.keyHash] }), index('idempotency_keys_org_created').on(t.orgId, t.createdAt)],
);

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
