import {
  inTransaction,
  findOrg,
  insertOrg,
  insertUser,
  isDuplicateKey,
  isId,
  newId,
  type OrgScope,
  type OrgRow,
  type Role,
  type UserRow,
} from '@memory-bank/db';
import { requireAdmin, type Principal } from '../auth/principal';
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
      return await inTransaction(db, async (tx) => {
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
      return inTransaction(db, async (tx) => {
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
      requireAdmin(principal, 'add members');
      if (input.role === 'owner' && principal.role !== 'owner') {
        throw new AppError('forbidden', 'Only an owner can make another owner');
      }
      return createMember(principal, input, actorOf(principal));
    },

    /** Operator (CLI): adds a member to any org. */
    async addMemberAsOperator(orgId: string, input: { email: string; role: Role }, requestId: string): Promise<AddedMember> {
      if (!isId('org', orgId) || !(await findOrg(db, { orgId }))) throw notFound('Org');
      return createMember({ orgId }, input, operatorActor(requestId));
    },
  };
}
