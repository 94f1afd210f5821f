import { char, index, mysqlEnum, mysqlTable, text, varchar } from 'drizzle-orm/mysql-core';
import { idColumn, jsonColumn, timestamp } from './columns';

/**
 * What the MCP authorization server (oidc-provider) keeps: one row per stored object of its
 * models — sessions, interactions, authorization codes, access and refresh tokens, grants,
 * registered clients. Keyed by a digest of model and id: a token's id is the token itself,
 * so it is never stored as such.
 */
export const oauthRecords = mysqlTable(
  'oauth_records',
  {
    /** SHA-256 (hex) of `<model>:<id>`. */
    ref: char('ref', { length: 64 }).primaryKey(),
    model: varchar('model', { length: 40 }).notNull(),
    /** The model's payload, without the id when the id is a token. */
    payload: jsonColumn<Record<string, unknown>>('payload').notNull(),
    /** The grant a token belongs to, and a grant's own id: what revoking a grant deletes. */
    grantId: varchar('grant_id', { length: 64 }),
    /** A session's uid (looked up by it). */
    uid: varchar('uid', { length: 64 }),
    /** The account's org and user, for a grant or token: whose "Connected apps" it is, what member removal deletes. */
    orgId: idColumn('org_id'),
    userId: idColumn('user_id'),
    clientId: varchar('client_id', { length: 255 }),
    /** A grant's client name as the person saw it on the consent screen. */
    clientName: varchar('client_name', { length: 200 }),
    createdAt: timestamp('created_at').notNull(),
    /** When the record may be deleted; null: kept until deleted. */
    expiresAt: timestamp('expires_at'),
    consumedAt: timestamp('consumed_at'),
    /** A grant's last use by one of its access tokens (written at most once a minute). */
    lastUsedAt: timestamp('last_used_at'),
  },
  (t) => [
    index('oauth_records_grant').on(t.grantId),
    index('oauth_records_uid').on(t.uid),
    index('oauth_records_owner').on(t.orgId, t.userId, t.model),
    index('oauth_records_expiry').on(t.expiresAt),
  ],
);

export const OAUTH_KEY_KINDS = ['signing', 'cookie'] as const;

/**
 * The authorization server's keys, shared by every replica: JWKs that sign what it signs
 * (newest first signs; older ones still verify) and secrets that sign its cookies.
 */
export const oauthKeys = mysqlTable('oauth_keys', {
  id: varchar('id', { length: 40 }).primaryKey(),
  kind: mysqlEnum('kind', OAUTH_KEY_KINDS).notNull(),
  /** A private JWK as JSON, or a cookie secret. */
  secret: text('secret').notNull(),
  createdAt: timestamp('created_at').notNull(),
});

/**
 * Tables of the unsharded keyspace (docs/scaling.md#the-sharding-key): the authorization
 * server's records are found by a token's digest or a client's id before any org is known,
 * and many (clients, interactions, keys) belong to no org at all; small: tokens per
 * connected app, not per request. And the background jobs' leases and run records, which belong to no org.
 */
export const UNSHARDED_TABLES: readonly string[] = ['oauth_records', 'oauth_keys', 'maintenance_leases', 'maintenance_runs'];

export type OAuthRecordRow = typeof oauthRecords.$inferSelect;
export type OAuthKeyRow = typeof oauthKeys.$inferSelect;
