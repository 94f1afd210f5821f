import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../driver';
import { preparedOn } from '../driver';
import { isOidcIdentityOf, type OidcIdentity } from '../queries/oidc';
import { apiKeys, orgs, users, type ApiKeyScope, type OrgRow, type UserRow } from '../schema';
import { ownerScopeOf, type OwnerScope } from '../scope';

/**
 * The lookups authentication makes before there is a scope: they are what establish it.
 * Only the system entry point exports them.
 */

/** What a valid key says about its bearer. */
export interface KeyHolder {
  scope: OwnerScope;
  keyId: string;
  scopes: ApiKeyScope[];
  /** The key's recall budget in characters; null: the default. */
  recallBudgetChars: number | null;
  /** The org setting `redact_memory_secrets`, read with the key so a save needs no statement of its own. */
  redactsMemorySecrets: boolean;
  /** The org setting `dedupe_memories`. */
  dedupesMemories: boolean;
  lastUsedAt: Date | null;
}

/** A live key by the SHA-256 of its secret, with its user's org, role and org settings. */
export async function findKeyHolder(ex: Executor, keyHash: string): Promise<KeyHolder | null> {
  const query = preparedOn(ex, 'findKeyHolder', (on) =>
    on
      .select({
        keyId: apiKeys.id,
        orgId: users.orgId,
        userId: users.id,
        role: users.role,
        scopes: apiKeys.scopes,
        recallBudgetChars: apiKeys.recallBudgetChars,
        redactsMemorySecrets: orgs.redactMemorySecrets,
        dedupesMemories: orgs.dedupeMemories,
        lastUsedAt: apiKeys.lastUsedAt,
      })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .innerJoin(orgs, eq(orgs.id, users.orgId))
      .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt), isNull(users.removedAt))),
  );
  const [row] = await query.execute({ hash: keyHash });
  if (!row) return null;
  return {
    scope: ownerScopeOf({ orgId: row.orgId, id: row.userId, role: row.role }),
    keyId: row.keyId,
    scopes: row.scopes,
    recallBudgetChars: row.recallBudgetChars,
    redactsMemorySecrets: row.redactsMemorySecrets,
    dedupesMemories: row.dedupesMemories,
    lastUsedAt: row.lastUsedAt,
  };
}

/** Records that a key was used (best effort; callers throttle it). */
export async function touchApiKey(ex: Executor, key: { orgId: string; keyId: string }, at: Date): Promise<void> {
  await ex
    .update(apiKeys)
    .set({ lastUsedAt: at })
    .where(and(eq(apiKeys.orgId, key.orgId), eq(apiKeys.id, key.keyId)));
}

/**
 * The user an OIDC identity is linked to, in whatever org: a verified identity is what
 * establishes the caller's scope.
 */
export async function findUserByOidcIdentity(ex: Executor, identity: OidcIdentity): Promise<(UserRow & Pick<OrgRow, 'redactMemorySecrets' | 'dedupeMemories'>) | null> {
  const [row] = await ex
    .select({ user: users, redactMemorySecrets: orgs.redactMemorySecrets, dedupeMemories: orgs.dedupeMemories })
    .from(users)
    .innerJoin(orgs, eq(orgs.id, users.orgId))
    .where(and(eq(users.oidcIssuer, identity.issuer), eq(users.oidcSubject, identity.subject)));
  // `Abc` must not sign in as `abc`: the database matched without regard to case.
  return row && isOidcIdentityOf(row.user, identity) ? { ...row.user, redactMemorySecrets: row.redactMemorySecrets, dedupeMemories: row.dedupeMemories } : null;
}

/** An org by id, in whatever tenant: the org a sign-in token names, or the one the operator acts on. */
export async function findOrgById(ex: Executor, orgId: string): Promise<OrgRow | null> {
  const [row] = await ex.select().from(orgs).where(eq(orgs.id, orgId));
  return row ?? null;
}
