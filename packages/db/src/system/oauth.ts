import { and, asc, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../driver';
import { oauthKeys, oauthRecords, orgs, users, type OAuthKeyRow, type OAuthRecordRow } from '../schema';
import { ownerScopeOf, type OwnerScope } from '../scope';

/**
 * The storage of the MCP authorization server (apps/api/src/oauth/adapter.ts): records by
 * the digest of their model and id. Tokens are looked up before anyone is known, so these
 * cross tenants like the API-key lookup does; the account's org and user are written beside
 * each record for the scoped queries in queries/oauth.ts.
 */

export interface OAuthRecordInput {
  ref: string;
  model: string;
  payload: Record<string, unknown>;
  grantId: string | null;
  uid: string | null;
  /** The account (a user id) the record is for; its org is looked up on write. */
  userId: string | null;
  clientId: string | null;
  createdAt: Date;
  expiresAt: Date | null;
}

/** Writes a record (a replace: oidc-provider saves a model whole), with its account's org. */
export async function upsertOAuthRecord(ex: Executor, record: OAuthRecordInput): Promise<void> {
  let orgId: string | null = null;
  if (record.userId) {
    const [user] = await ex.select({ orgId: users.orgId }).from(users).where(eq(users.id, record.userId));
    orgId = user?.orgId ?? null;
  }
  const values = { ...record, orgId, userId: orgId ? record.userId : null };
  await ex
    .insert(oauthRecords)
    .values(values)
    .onDuplicateKeyUpdate({
      set: {
        payload: sql`values(${oauthRecords.payload})`,
        grantId: sql`values(${oauthRecords.grantId})`,
        uid: sql`values(${oauthRecords.uid})`,
        orgId: sql`values(${oauthRecords.orgId})`,
        userId: sql`values(${oauthRecords.userId})`,
        clientId: sql`values(${oauthRecords.clientId})`,
        expiresAt: sql`values(${oauthRecords.expiresAt})`,
      },
    });
}

export async function findOAuthRecord(ex: Executor, ref: string): Promise<OAuthRecordRow | null> {
  const [row] = await ex.select().from(oauthRecords).where(eq(oauthRecords.ref, ref));
  return row ?? null;
}

export async function findOAuthRecordByUid(ex: Executor, model: string, uid: string): Promise<OAuthRecordRow | null> {
  const [row] = await ex
    .select()
    .from(oauthRecords)
    .where(and(eq(oauthRecords.model, model), eq(oauthRecords.uid, uid)));
  return row ?? null;
}

export async function consumeOAuthRecord(ex: Executor, ref: string, at: Date): Promise<void> {
  await ex.update(oauthRecords).set({ consumedAt: at }).where(eq(oauthRecords.ref, ref));
}

export async function destroyOAuthRecord(ex: Executor, ref: string): Promise<OAuthRecordRow | null> {
  const row = await findOAuthRecord(ex, ref);
  if (row) await ex.delete(oauthRecords).where(eq(oauthRecords.ref, ref));
  return row;
}

/** Deletes a model's records of a grant (oidc-provider revokes a grant model by model). */
export async function revokeOAuthRecordsOfGrant(ex: Executor, model: string, grantId: string): Promise<void> {
  await ex.delete(oauthRecords).where(and(eq(oauthRecords.grantId, grantId), eq(oauthRecords.model, model)));
}

/** Records that one of a grant's access tokens was used (callers throttle it). */
export async function touchOAuthGrant(ex: Executor, grantRef: string, at: Date): Promise<void> {
  await ex.update(oauthRecords).set({ lastUsedAt: at }).where(eq(oauthRecords.ref, grantRef));
}

/** A registered client that got a grant is in use: it no longer expires unused. */
export async function keepOAuthClient(ex: Executor, clientRef: string): Promise<void> {
  await ex.update(oauthRecords).set({ expiresAt: null }).where(eq(oauthRecords.ref, clientRef));
}

/** Deletes up to `limit` records past their expiry; how many it deleted. */
export async function deleteExpiredOAuthRecords(ex: Executor, now: Date, limit: number): Promise<number> {
  const expired = await ex
    .select({ ref: oauthRecords.ref })
    .from(oauthRecords)
    .where(and(isNotNull(oauthRecords.expiresAt), lte(oauthRecords.expiresAt, now)))
    .orderBy(asc(oauthRecords.expiresAt))
    .limit(limit);
  if (expired.length === 0) return 0;
  const refs = expired.map((row) => row.ref);
  await ex.delete(oauthRecords).where(sql`${oauthRecords.ref} in ${refs}`);
  return refs.length;
}

export async function listOAuthKeys(ex: Executor): Promise<OAuthKeyRow[]> {
  return ex.select().from(oauthKeys).orderBy(asc(oauthKeys.createdAt), asc(oauthKeys.id));
}

/** Adds a key unless one with its id exists (replicas starting together create one each; the ids differ, both are kept). */
export async function insertOAuthKey(ex: Executor, key: OAuthKeyRow): Promise<void> {
  await ex.insert(oauthKeys).values(key);
}

export async function deleteOAuthKey(ex: Executor, id: string): Promise<boolean> {
  const [result] = await ex.delete(oauthKeys).where(eq(oauthKeys.id, id));
  return result.affectedRows > 0;
}

/** What an OAuth account (a user id) signs in as: a member not removed, with their org's settings. */
export interface OAuthAccount {
  scope: OwnerScope;
  email: string;
  redactsMemorySecrets: boolean;
  dedupesMemories: boolean;
}

export async function findOAuthAccount(ex: Executor, userId: string): Promise<OAuthAccount | null> {
  const [row] = await ex
    .select({ orgId: users.orgId, userId: users.id, role: users.role, email: users.email, redactsMemorySecrets: orgs.redactMemorySecrets, dedupesMemories: orgs.dedupeMemories })
    .from(users)
    .innerJoin(orgs, eq(orgs.id, users.orgId))
    .where(and(eq(users.id, userId), isNull(users.removedAt)));
  if (!row) return null;
  return { scope: ownerScopeOf({ orgId: row.orgId, id: row.userId, role: row.role }), email: row.email, redactsMemorySecrets: row.redactsMemorySecrets, dedupesMemories: row.dedupesMemories };
}
