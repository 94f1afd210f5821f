import {
  deleteOrgAudit,
  deleteOrgOAuthRecords,
  deleteOrgRow,
  findOrgUserByEmail,
  findUser,
  inTransaction,
  insertUser,
  isId,
  listApiKeys,
  newId,
  orgFootprint,
  purgeOrgWorkstreams,
  revokeApiKey,
  type ApiKeyRecord,
  type ApiKeyScope,
  type Executor,
  type OrgRow,
  type OrgScope,
  type OwnerScope,
  type Role,
  type UserRow,
} from '@memory-bank/db';
import { findKeyOwnerForOperator, findOrgById, findUserForOperator, insertOrg, orgScopeOf, ownerScopeOf } from '@memory-bank/db/system';
import type { Archiver, PurgeProgress } from '../archive/sealer';
import { defaultScopes, type Principal } from '../auth/principal';
import { AppError, notFound } from '../errors';
import type { ApiKeyService, IssuedApiKey } from './api-keys';
import { operatorActor, recordAudit } from './audit';
import type { ServiceDeps } from './deps';
import { normaliseEmail, type AddedMember, type MembersService } from './members';

export interface ProvisionedOrg {
  org: OrgRow;
  user: UserRow;
  apiKey: IssuedApiKey;
}

export type OperatorService = ReturnType<typeof createOperatorService>;

/**
 * What the operator does across tenants (the CLI, and the operator routes behind their
 * token): it names orgs, users and keys by id, so it looks them up here and acts in the
 * scope it found. Every action is audited as the operator's.
 */
export function createOperatorService(
  { db, clock, credentials }: Pick<ServiceDeps, 'db' | 'clock' | 'credentials'>,
  deps: { apiKeys: ApiKeyService; members: MembersService; archiver: Archiver },
) {
  async function orgRow(ex: Executor, orgId: string) {
    const org = isId('org', orgId) ? await findOrgById(ex, orgId) : null;
    if (!org) throw notFound('Org');
    return org;
  }

  async function orgScope(ex: Executor, orgId: string): Promise<OrgScope> {
    return orgScopeOf(await orgRow(ex, orgId));
  }

  async function userScope(userId: string): Promise<OwnerScope> {
    const user = isId('user', userId) ? await findUserForOperator(db, userId) : null;
    if (!user) throw notFound('User');
    return ownerScopeOf(user);
  }

  return {
    /** A new org with its owner and the owner's first key, in one transaction. */
    provision(input: { name: string; ownerEmail: string }, requestId: string): Promise<ProvisionedOrg> {
      return inTransaction(db, async (tx) => {
        const now = clock.now();
        const org = await insertOrg(tx, { id: newId('org', now), name: input.name.trim(), createdAt: now });
        const scope = orgScopeOf(org);
        const user = await insertUser(tx, scope, {
          id: newId('user', now),
          email: normaliseEmail(input.ownerEmail),
          role: 'owner',
          createdAt: now,
        });
        const apiKey = await deps.apiKeys.issue(tx, scope, user.id, { name: 'owner key', scopes: defaultScopes('owner') });
        await recordAudit(tx, clock, scope, operatorActor(requestId), { action: 'org.create', targetType: 'org', targetId: org.id });
        return { org, user, apiKey };
      });
    },

    /** Adds a member to any org. */
    async addMember(orgId: string, input: { email: string; role: Role }, requestId: string): Promise<AddedMember> {
      return deps.members.add(await orgScope(db, orgId), input, operatorActor(requestId));
    },

    /** Deletes an org and everything it holds, object storage included; `onProgress` hears of the objects. */
    async deleteOrg(orgId: string, requestId: string, onProgress?: (progress: PurgeProgress) => void) {
      const done = await inTransaction(db, async (tx) => {
        const org = await orgScope(tx, orgId);
        const footprint = await orgFootprint(tx, org);
        const workstreams = await purgeOrgWorkstreams(tx, org, clock.now());
        await deleteOrgAudit(tx, org);
        // The authorization server's tables are unsharded, without a foreign key to the org.
        await deleteOrgOAuthRecords(tx, org);
        await deleteOrgRow(tx, org);
        const counts = {
          memories: footprint.memories,
          contexts: footprint.contexts,
          workstreams: workstreams.workstreams,
          segments: workstreams.segments,
          users: footprint.users,
          api_keys: footprint.apiKeys,
        };
        await recordAudit(tx, clock, org, operatorActor(requestId), { action: 'org.delete', targetType: 'org', targetId: orgId, counts });
        return { counts, objectKeys: workstreams.objectKeys };
      });
      await credentials.changed(orgId);
      await deps.archiver.purgeObjects(done.objectKeys, [`orgs/${orgId}/`], onProgress);
      return done.counts;
    },

    /**
     * A member of any org (by id or email) as a principal, for operator jobs done on their
     * behalf through the same services (the CLI's memory import and export): it can do what
     * their role can, and the audit trail names the operator.
     */
    async actAs(orgId: string, user: string, requestId: string): Promise<Principal> {
      const settings = await orgRow(db, orgId);
      const org = orgScopeOf(settings);
      const row = user.includes('@') ? await findOrgUserByEmail(db, org, normaliseEmail(user)) : isId('user', user) ? await findUser(db, org, user) : null;
      if (!row || row.removedAt) throw notFound('User');
      return { scope: ownerScopeOf(row), via: 'operator', keyId: null, scopes: defaultScopes(row.role), recallBudgetChars: null, redactsMemorySecrets: settings.redactMemorySecrets, dedupesMemories: settings.dedupeMemories, requestId };
    },

    /** A key for any user, with any scopes their role allows. */
    async issueKey(userId: string, input: { name: string; scopes?: ApiKeyScope[] }, requestId: string): Promise<IssuedApiKey> {
      const user = await userScope(userId);
      const scopes = input.scopes ?? defaultScopes(user.role);
      if (scopes.includes('admin') && user.role === 'member') {
        throw new AppError('forbidden', 'A member cannot hold a key with the admin scope');
      }
      return inTransaction(db, async (tx) => {
        const issued = await deps.apiKeys.issue(tx, user, user.userId, { name: input.name, scopes });
        await recordAudit(tx, clock, user, operatorActor(requestId), { action: 'api_key.create', targetType: 'api_key', targetId: issued.record.id });
        return issued;
      });
    },

    /** Every key of a user. */
    async listKeys(userId: string): Promise<ApiKeyRecord[]> {
      return listApiKeys(db, await userScope(userId));
    },

    /** Revokes any key. */
    async revokeKey(keyId: string, requestId: string): Promise<void> {
      const owner = isId('apiKey', keyId) ? await findKeyOwnerForOperator(db, keyId) : null;
      if (!owner) throw notFound('API key');
      await inTransaction(db, async (tx) => {
        if (!(await revokeApiKey(tx, owner, keyId, clock.now()))) throw notFound('API key');
        await recordAudit(tx, clock, owner, operatorActor(requestId), { action: 'api_key.revoke', targetType: 'api_key', targetId: keyId });
      });
      await credentials.changed(owner.orgId);
    },
  };
}
