import { findOrg, inTransaction, lockOrg, updateOrgSettings, type OrgRow, type OrgSettings } from '@memory-bank/db';
import { requireAdmin, type Principal } from '../auth/principal';
import { notFound } from '../errors';
import { actorOf, recordAudit } from './audit';
import type { ServiceDeps } from './deps';

export type OrgService = ReturnType<typeof createOrgService>;

/** The caller's org itself: its settings. Admins and owners only. */
export function createOrgService({ db, clock, credentials }: Pick<ServiceDeps, 'db' | 'clock' | 'credentials'>) {
  return {
    /** The caller's org and its settings. */
    async get(principal: Principal): Promise<OrgRow> {
      requireAdmin(principal, 'read org settings');
      const org = await findOrg(db, principal.scope);
      if (!org) throw notFound('Org');
      return org;
    },

    /** Changes org settings; each change is audited (`org.update`, the new value in `counts`). */
    async updateSettings(principal: Principal, change: Partial<OrgSettings>): Promise<OrgRow> {
      requireAdmin(principal, 'change org settings');
      const updated = await inTransaction(db, async (tx) => {
        const org = await lockOrg(tx, principal.scope);
        if (!org) throw notFound('Org');
        const redactMemorySecrets = change.redactMemorySecrets ?? org.redactMemorySecrets;
        if (redactMemorySecrets === org.redactMemorySecrets) return org;
        await updateOrgSettings(tx, principal.scope, { redactMemorySecrets });
        await recordAudit(tx, clock, principal.scope, actorOf(principal), {
          action: 'org.update',
          targetType: 'org',
          targetId: principal.scope.orgId,
          counts: { redact_memory_secrets: redactMemorySecrets ? 1 : 0 },
        });
        return { ...org, redactMemorySecrets };
      });
      // Credentials carry the org's settings (Principal.redactsMemorySecrets).
      await credentials.changed(principal.scope.orgId);
      return updated;
    },
  };
}
