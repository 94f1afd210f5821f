import { deleteOAuthGrants, findOAuthGrant, findUser, inTransaction, listOAuthGrants, nameOAuthGrantClient, type OAuthGrantRecord, type OrgScope } from '@memory-bank/db';
import { hasAdminPowers, requireAdmin, type Principal } from '../auth/principal';
import { notFound } from '../errors';
import { actorOf, recordAudit, type AuditActor } from './audit';
import type { ServiceDeps } from './deps';

/** A connected app: a person's authorization of an OAuth client, as "Connected apps" shows it. */
export interface ConnectedApp {
  id: string;
  clientId: string;
  clientName: string | null;
  scopes: string[];
  userId: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** The scopes a grant holds (oidc-provider keeps them per resource, space-separated). */
function grantScopes(payload: Record<string, unknown>): string[] {
  const resources = (payload.resources ?? {}) as Record<string, unknown>;
  const scopes = new Set<string>();
  for (const value of Object.values(resources)) if (typeof value === 'string') for (const scope of value.split(' ')) if (scope) scopes.add(scope);
  return [...scopes].sort();
}

const connectedApp = (grant: OAuthGrantRecord): ConnectedApp => ({
  id: grant.id,
  clientId: grant.clientId,
  clientName: grant.clientName,
  scopes: grantScopes(grant.payload),
  userId: grant.userId,
  createdAt: grant.createdAt,
  lastUsedAt: grant.lastUsedAt,
});

export type OAuthGrantService = ReturnType<typeof createOAuthGrantService>;

/**
 * Connected apps: list and revoke OAuth grants. A person sees and revokes their own; an
 * admin also a member's or the whole org's. Revoking deletes the grant and every token
 * issued under it, and the credential caches forget them.
 */
export function createOAuthGrantService({ db, clock, credentials }: Pick<ServiceDeps, 'db' | 'clock' | 'credentials'>) {
  return {
    /** The caller's grants; an admin's for `userId`, or for the whole org with `all`. */
    async list(principal: Principal, options: { userId?: string; all?: boolean }): Promise<ConnectedApp[]> {
      const org = principal.scope;
      if (options.all) {
        requireAdmin(principal, "list the org's connected apps");
        return (await listOAuthGrants(db, org, null)).map(connectedApp);
      }
      const userId = options.userId ?? org.userId;
      if (userId !== org.userId) {
        requireAdmin(principal, "list another member's connected apps");
        if (!(await findUser(db, org, userId))) throw notFound('Member');
      }
      return (await listOAuthGrants(db, org, userId)).map(connectedApp);
    },

    /** Revokes one grant: the caller's own, or any of the org's for an admin; another's is 404. */
    async revoke(principal: Principal, grantId: string): Promise<void> {
      const org = principal.scope;
      await inTransaction(db, async (tx) => {
        const grant = await findOAuthGrant(tx, org, grantId);
        if (!grant || (grant.userId !== org.userId && !hasAdminPowers(principal))) throw notFound('Connected app');
        await deleteOAuthGrants(tx, org, [grant.id]);
        await recordAudit(tx, clock, org, actorOf(principal), { action: 'oauth.revoke', targetType: 'oauth_grant', targetId: grant.id });
      });
      await credentials.changed(org.orgId);
    },

    /** Records a grant a person just gave (consent): the client's name as they saw it, audited as `oauth.grant`. */
    async recordGranted(principal: Principal, grant: { id: string; clientName: string | null; scopes: number }): Promise<void> {
      await inTransaction(db, async (tx) => {
        await nameOAuthGrantClient(tx, principal.scope, grant.id, grant.clientName);
        await recordAudit(tx, clock, principal.scope, actorOf(principal), { action: 'oauth.grant', targetType: 'oauth_grant', targetId: grant.id, counts: { scopes: grant.scopes } });
      });
    },

    /** Records a revocation the authorization server made itself (RFC 7009, a reused refresh token). */
    async recordRevoked(org: OrgScope, userId: string, grantId: string, requestId: string): Promise<void> {
      const actor: AuditActor = { type: 'user', userId, keyId: null, requestId };
      await recordAudit(db, clock, org, actor, { action: 'oauth.revoke', targetType: 'oauth_grant', targetId: grantId });
      await credentials.changed(org.orgId);
    },
  };
}
