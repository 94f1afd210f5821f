import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../driver';
import { users, type UserRow } from '../schema';
import type { OrgScope } from '../scope';

/** Who an OpenID Connect provider says the caller is: unique across every org. */
export interface OidcIdentity {
  readonly issuer: string;
  readonly subject: string;
}

/** Exact comparison: the columns' collation ignores case and trailing spaces, `sub` does not. */
export function isOidcIdentityOf(user: Pick<UserRow, 'oidcIssuer' | 'oidcSubject'>, identity: OidcIdentity): boolean {
  return user.oidcIssuer === identity.issuer && user.oidcSubject === identity.subject;
}

/** The user of the org with this (lower-cased) email, linked or not, removed or not. */
export async function findOrgUserByEmail(ex: Executor, org: OrgScope, email: string): Promise<UserRow | null> {
  const [row] = await ex
    .select()
    .from(users)
    .where(and(eq(users.orgId, org.orgId), eq(users.email, email)));
  return row ?? null;
}

/**
 * Links an OIDC identity to a user of the org who has none yet and is not removed.
 * False when the user no longer qualifies (someone else linked it first, or removed it).
 */
export async function linkOidcIdentity(ex: Executor, org: OrgScope, userId: string, identity: OidcIdentity): Promise<boolean> {
  const [result] = await ex
    .update(users)
    .set({ oidcIssuer: identity.issuer, oidcSubject: identity.subject })
    .where(and(eq(users.orgId, org.orgId), eq(users.id, userId), isNull(users.oidcIssuer), isNull(users.removedAt)));
  return result.affectedRows > 0;
}
