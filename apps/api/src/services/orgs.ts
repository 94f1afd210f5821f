import { findOrg, inTransaction, lockOrg, updateOrgSettings, type OrgRow, type OrgSettings } from '@memory-bank/db';
import { requireAdmin, type Principal } from '../auth/principal';
import { notFound } from '../errors';
import { actorOf, recordAudit } from './audit';
import type { ServiceDeps } from './deps';

export type OrgService = ReturnType<typeof createOrgService>;

/** How each setting is named in the audit trail's counts (snake_case, as on the wire). */
const AUDIT_NAMES: Record<keyof OrgSettings, string> = {
  redactMemorySecrets: 'redact_memory_secrets',
  dedupeMemories: 'dedupe_memories',
  memoryRetentionDays: 'memory_retention_days',
  workstreamRetentionDays: 'workstream_retention_days',
};

/** A setting's new value as an audit count: booleans 1 or 0, days as they are, "keep forever" (null) 0. */
function auditValue(value: OrgSettings[keyof OrgSettings]): number {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value ?? 0;
}

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

    /**
     * Changes org settings. What differs from the org's current values is written and audited
     * together, in one `org.update` event whose counts hold each changed setting's new value;
     * a change to nothing writes and records nothing.
     */
    async updateSettings(principal: Principal, change: Partial<OrgSettings>): Promise<OrgRow> {
      requireAdmin(principal, 'change org settings');
      const updated = await inTransaction(db, async (tx) => {
        const org = await lockOrg(tx, principal.scope);
        if (!org) throw notFound('Org');
        const changed = (Object.keys(AUDIT_NAMES) as (keyof OrgSettings)[]).filter((name) => change[name] !== undefined && change[name] !== org[name]);
        if (changed.length === 0) return org;
        const settings: Partial<OrgSettings> = Object.fromEntries(changed.map((name) => [name, change[name]]));
        await updateOrgSettings(tx, principal.scope, settings);
        await recordAudit(tx, clock, principal.scope, actorOf(principal), {
          action: 'org.update',
          targetType: 'org',
          targetId: principal.scope.orgId,
          counts: Object.fromEntries(Object.entries(settings).map(([name, value]) => [AUDIT_NAMES[name as keyof OrgSettings], auditValue(value)])),
        });
        return { ...org, ...settings };
      });
      // Credentials carry the org's settings (Principal.redactsMemorySecrets).
      await credentials.changed(principal.scope.orgId);
      return updated;
    },
  };
}
