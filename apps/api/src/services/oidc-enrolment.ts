import { createHash } from 'node:crypto';
import {
  findOrgUserByEmail,
  inTransaction,
  insertUser,
  isOidcIdentityOf,
  linkOidcIdentity,
  newId,
  type OidcIdentity,
  type OrgScope,
  type UserRow,
} from '@memory-bank/db';
import type { OidcEnrolment } from '../auth/oidc';
import { recordAudit } from './audit';
import type { ServiceDeps } from './deps';

/**
 * users.email is required and unique per org: without an email claim, a stable address
 * that cannot collide with a real one (RFC 2606 .invalid) and does not depend on the case
 * of `sub` (the column's collation ignores case).
 */
function placeholderEmail(identity: OidcIdentity): string {
  const digest = createHash('sha256').update(`${identity.issuer}\n${identity.subject}`).digest('hex');
  return `oidc-${digest.slice(0, 32)}@oidc.invalid`;
}

/**
 * First OIDC sign-in in an org (the org the token's claim names, loaded by
 * authentication): link the org's pre-added member with this verified email, or create a
 * member, audited as their own doing.
 */
export function createOidcEnrolment({ db, clock, logger }: Pick<ServiceDeps, 'db' | 'clock' | 'logger'>): OidcEnrolment {
  return {
    async enrol(org: OrgScope, identity: OidcIdentity, email: string | null, requestId: string): Promise<UserRow | 'retry' | null> {
      const log = { org_id: org.orgId, oidc_iss: identity.issuer, oidc_sub: identity.subject };
      const holder = email ? await findOrgUserByEmail(db, org, email) : null;
      if (holder) {
        // This identity's own row, inserted by a concurrent first sign-in since we looked.
        if (isOidcIdentityOf(holder, identity)) return holder.removedAt ? null : holder;
        if (holder.removedAt || holder.oidcIssuer !== null) {
          logger.warn({ ...log, user_id: holder.id }, 'OIDC sign-in refused: the email belongs to a removed or already linked member');
          return null;
        }
        if (!(await linkOidcIdentity(db, org, holder.id, identity))) return 'retry';
        logger.info({ ...log, user_id: holder.id }, 'linked an OIDC identity to a member');
        return { ...holder, oidcIssuer: identity.issuer, oidcSubject: identity.subject };
      }
      const now = clock.now();
      const user = await inTransaction(db, async (tx) => {
        const created = await insertUser(tx, org, {
          id: newId('user', now),
          email: email ?? placeholderEmail(identity),
          role: 'member',
          createdAt: now,
          oidcIssuer: identity.issuer,
          oidcSubject: identity.subject,
        });
        // The member joined by signing in: they are the actor of their own addition.
        await recordAudit(tx, clock, org, { type: 'user', userId: created.id, keyId: null, requestId }, {
          action: 'member.add',
          targetType: 'user',
          targetId: created.id,
        });
        return created;
      });
      logger.info({ ...log, user_id: user.id }, 'created a member on first OIDC sign-in');
      return user;
    },
  };
}
