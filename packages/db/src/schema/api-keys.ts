import { char, index, mysqlTable, uniqueIndex, varchar } from 'drizzle-orm/mysql-core';
import { idColumn, jsonColumn, timestamp } from './columns';
import { orgIdColumn, userIdColumn } from './orgs';

/** The closed set of scopes a key can carry. */
export const API_KEY_SCOPES = [
  'memory:read',
  'memory:write',
  'hooks:write',
  'workstreams:read',
  'workstreams:write',
  /** Create, list and revoke the holder's other keys (any key may revoke itself). */
  'keys:manage',
  'admin',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const apiKeys = mysqlTable(
  'api_keys',
  {
    id: idColumn('id').primaryKey(),
    orgId: orgIdColumn(),
    userId: userIdColumn(),
    name: varchar('name', { length: 100 }).notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    keyHash: char('key_hash', { length: 64 }).notNull(),
    /** The first characters of the key, enough for a person to recognise it. */
    displayPrefix: varchar('display_prefix', { length: 16 }).notNull(),
    scopes: jsonColumn<ApiKeyScope[]>('scopes').notNull(),
    createdAt: timestamp('created_at').notNull(),
    lastUsedAt: timestamp('last_used_at'),
    revokedAt: timestamp('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_hash').on(t.keyHash), index('api_keys_user').on(t.userId, t.id)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
