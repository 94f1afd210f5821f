import {
  findOrg,
  insertOrg,
  insertUser,
  isDuplicateKey,
  isId,
  lockOrg,
  newId,
  updateOrgSettings,
  type OrgScope,
  type OrgRow,
  type OrgSettings,
  type Role,
  type UserRow,
} from '@memory-bank/db';
import { hasAdminPowers, type Principal } from '../auth/principal';
import { AppError, notFound } from '../errors';
import { defaultScopes, type ApiKeyService, type IssuedApiKey } from './api-keys';
import { actorOf, operatorActor, recordAudit, type AuditActor } from './audit';
import type { ServiceDeps } from './deps';

export interface ProvisionedOrg {
  org: OrgRow;
  user: UserRow;
  apiKey: IssuedApiKey;
}

export interface AddedMember {
  user: UserRow;
  apiKey: IssuedApiKey;
}

export type OrgService = ReturnType<typeof createOrgService>;

function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function createOrgService({ db, clock }: ServiceDeps, apiKeys: ApiKeyService) {
  async function createMember(org: OrgScope, input: { email: string; role: Role }, actor: AuditActor): Promise<AddedMember> {
    try {
      return await db.transaction(async (tx) => {
        const now = clock.now();
        const user = await insertUser(tx, org, {
          id: newId('user', now),
          email: normaliseEmail(input.email),
          role: input.role,
          createdAt: now,
        });
        const apiKey = await apiKeys.issue(tx, { orgId: org.orgId, userId: user.id }, {
          name: 'first key',
          scopes: defaultScopes(input.role),
        });
        await recordAudit(tx, clock, org.orgId, actor, {
          action: 'member.add',
          targetType: 'user',
          targetId: user.id,
          counts: { api_keys: 1 },
        });
        return { user, apiKey };
      });
    } catch (error) {
      if (isDuplicateKey(error)) throw new AppError('conflict', 'A member with this email is already in the org');
      throw error;
    }
  }

  return {
    /** Operator: a new org with its owner and the owner's first key, in one transaction. */
    provision(input: { name: string; ownerEmail: string }, requestId: string): Promise<ProvisionedOrg> {
      return db.transaction(async (tx) => {
        const now = clock.now();
        const org = await insertOrg(tx, { id: newId('org', now), name: input.name.trim(), createdAt: now });
        const user = await insertUser(tx, { orgId: org.id }, {
          id: newId('user', now),
          email: normaliseEmail(input.ownerEmail),
          role: 'owner',
          createdAt: now,
        });
        const apiKey = await apiKeys.issue(tx, { orgId: org.id, userId: user.id }, {
          name: 'owner key',
          scopes: defaultScopes('owner'),
        });
        await recordAudit(tx, clock, org.id, operatorActor(requestId), { action: 'org.create', targetType: 'org', targetId: org.id });
        return { org, user, apiKey };
      });
    },

    /**
     * Org admins and owners add a member and get the member's first key. Only an owner
     * may make another owner.
     */
    addMember(principal: Principal, input: { email: string; role: Role }): Promise<AddedMember> {
      if (!hasAdminPowers(principal)) throw new AppError('forbidden', 'Only org admins and owners, with the admin scope, can add members');
      if (input.role === 'owner' && principal.role !== 'owner') {
        throw new AppError('forbidden', 'Only an owner can make another owner');
      }
      return createMember(principal, input, actorOf(principal));
    },

    /** The caller's org and its settings. Admins and owners. */
    async get(principal: Principal): Promise<OrgRow> {
      if (!hasAdminPowers(principal)) throw new AppError('forbidden', 'Only org admins and owners, with the admin scope, can read org settings');
      const org = await findOrg(db, principal);
      if (!org) throw notFound('Org');
      return org;
    },

    /** Changes org settings; each change is audited (`org.update`, the new value in `counts`). */
    updateSettings(principal: Principal, change: Partial<OrgSettings>): Promise<OrgRow> {
      if (!hasAdminPowers(principal)) throw new AppError('forbidden', 'Only org admins and owners, with the admin scope, can change org settings');
      return db.transaction(async (tx) => {
        const org = await lockOrg(tx, principal);
        if (!org) throw notFound('Org');
        const redactMemorySecrets = change.redactMemorySecrets ?? org.redactMemorySecrets;
        if (redactMemorySecrets === org.redactMemorySecrets) return org;
        await updateOrgSettings(tx, principal, { redactMemorySecrets });
        await recordAudit(tx, clock, principal.orgId, actorOf(principal), {
          action: 'org.update',
          targetType: 'org',
          targetId: principal.orgId,
          counts: { redact_memory_secrets: redactMemorySecrets ? 1 : 0 },
        });
        return { ...org, redactMemorySecrets };
      });
    },

    /** Operator (CLI): adds a member to any org. */
    async addMemberAsOperator(orgId: string, input: { email: string; role: Role }, requestId: string): Promise<AddedMember> {
      if (!isId('org', orgId) || !(await findOrg(db, { orgId }))) throw notFound('Org');
      return createMember({ orgId }, input, operatorActor(requestId));
    },
  };
}
