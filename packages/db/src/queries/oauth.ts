import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../driver';
import { oauthRecords } from '../schema';
import type { OrgScope } from '../scope';

/** The model name oidc-provider stores grants under. */
export const OAUTH_GRANT_MODEL = 'Grant';

/** A person's authorization of an OAuth client, as "Connected apps" lists it. */
export interface OAuthGrantRecord {
  id: string;
  userId: string;
  clientId: string;
  clientName: string | null;
  payload: Record<string, unknown>;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const grantColumns = {
  id: oauthRecords.grantId,
  userId: oauthRecords.userId,
  clientId: oauthRecords.clientId,
  clientName: oauthRecords.clientName,
  payload: oauthRecords.payload,
  createdAt: oauthRecords.createdAt,
  lastUsedAt: oauthRecords.lastUsedAt,
};

/** The org's grants, of one user or (userId null) of every member; newest first. */
export async function listOAuthGrants(ex: Executor, org: OrgScope, userId: string | null): Promise<OAuthGrantRecord[]> {
  const rows = await ex
    .select(grantColumns)
    .from(oauthRecords)
    .where(
      and(
        eq(oauthRecords.orgId, org.orgId),
        eq(oauthRecords.model, OAUTH_GRANT_MODEL),
        userId === null ? undefined : eq(oauthRecords.userId, userId),
      ),
    )
    .orderBy(desc(oauthRecords.createdAt));
  return rows.flatMap((row) => (row.id && row.userId && row.clientId ? [{ ...row, id: row.id, userId: row.userId, clientId: row.clientId }] : []));
}

/** One grant of the org, or null. */
export async function findOAuthGrant(ex: Executor, org: OrgScope, grantId: string): Promise<OAuthGrantRecord | null> {
  const [row] = await ex
    .select(grantColumns)
    .from(oauthRecords)
    .where(and(eq(oauthRecords.orgId, org.orgId), eq(oauthRecords.model, OAUTH_GRANT_MODEL), eq(oauthRecords.grantId, grantId)));
  return row?.id && row.userId && row.clientId ? { ...row, id: row.id, userId: row.userId, clientId: row.clientId } : null;
}

/**
 * Deletes grants of the org and everything issued under them (codes, access and refresh
 * tokens): they stop working with the next request. Returns how many records it deleted.
 */
export async function deleteOAuthGrants(ex: Executor, org: OrgScope, grantIds: readonly string[]): Promise<number> {
  if (grantIds.length === 0) return 0;
  const [result] = await ex.delete(oauthRecords).where(and(eq(oauthRecords.orgId, org.orgId), inArray(oauthRecords.grantId, [...grantIds])));
  return result.affectedRows;
}

/** Deletes every grant, token and sign-in session of a user (member removal, role change); how many grants. */
export async function deleteUserOAuthRecords(ex: Executor, org: OrgScope, userId: string): Promise<number> {
  const [grants] = await ex
    .select({ count: sql<number>`count(*)` })
    .from(oauthRecords)
    .where(and(eq(oauthRecords.orgId, org.orgId), eq(oauthRecords.userId, userId), eq(oauthRecords.model, OAUTH_GRANT_MODEL)));
  await ex.delete(oauthRecords).where(and(eq(oauthRecords.orgId, org.orgId), eq(oauthRecords.userId, userId)));
  return Number(grants?.count ?? 0);
}

/** Names a grant's client as the consent screen showed it. */
export async function nameOAuthGrantClient(ex: Executor, org: OrgScope, grantId: string, clientName: string | null): Promise<void> {
  await ex
    .update(oauthRecords)
    .set({ clientName })
    .where(and(eq(oauthRecords.orgId, org.orgId), eq(oauthRecords.model, OAUTH_GRANT_MODEL), eq(oauthRecords.grantId, grantId)));
}

/** Deletes every grant, token and session of the org's members (org deletion). */
export async function deleteOrgOAuthRecords(ex: Executor, org: OrgScope): Promise<void> {
  await ex.delete(oauthRecords).where(eq(oauthRecords.orgId, org.orgId));
}
