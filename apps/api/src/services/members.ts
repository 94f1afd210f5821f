import {
  countActiveOwners,
  deleteUserOAuthRecords,
  inTransaction,
  insertUser,
  isDuplicateKey,
  isId,
  listMemberMemoryMetadata,
  listUsers,
  lockUser,
  markUserRemoved,
  newId,
  purgeMemberMemories,
  purgeMemberWorkstreams,
  revokeUserKeys,
  setUserRole,
  withdrawAdminScope,
  type Executor,
  type MemoryMetadata,
  type OrgScope,
  type Role,
  type UserRow,
} from '@memory-bank/db';
import type { Archiver } from '../archive/sealer';
import { defaultScopes, requireAdmin, type Principal } from '../auth/principal';
import { AppError, notFound } from '../errors';
import type { ApiKeyService, IssuedApiKey } from './api-keys';
import { actorOf, recordAudit, type AuditActor } from './audit';
import { beforeIdCursor } from './cursor';
import type { ServiceDeps } from './deps';

export interface AddedMember {
  user: UserRow;
  apiKey: IssuedApiKey;
}

export interface PurgeCounts {
  memories: number;
  contexts: number;
  workstreams: number;
  segments: number;
}

export type MembersService = ReturnType<typeof createMembersService>;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * An org's members: adding them (with their first key), listing them, managing their data
 * without reading it, removing them. Admins and owners only; every destructive action is
 * audited in its own transaction, and objects in storage are deleted right after the
 * commit (and retried until they are gone).
 */
export function createMembersService({ db, clock, credentials }: Pick<ServiceDeps, 'db' | 'clock' | 'credentials'>, apiKeys: ApiKeyService, archiver: Archiver) {
  /** Deletes a member's private memories and, optionally, their workstreams, in `tx`. */
  async function purge(tx: Executor, org: OrgScope, userId: string, withWorkstreams: boolean) {
    const memories = await purgeMemberMemories(tx, org, userId);
    const workstreams = withWorkstreams
      ? await purgeMemberWorkstreams(tx, org, userId, clock.now())
      : { workstreams: 0, segments: 0, objectKeys: [] as string[], events: 0 };
    const counts: PurgeCounts = { ...memories, workstreams: workstreams.workstreams, segments: workstreams.segments };
    return { counts, objectKeys: workstreams.objectKeys };
  }

  async function member(ex: Executor, org: OrgScope, userId: string): Promise<UserRow> {
    const found = isId('user', userId) ? await lockUser(ex, org, userId) : null;
    if (!found) throw notFound('Member');
    return found;
  }

  /** A new member of the org and their first key, audited as `actor`'s doing. */
  async function add(org: OrgScope, input: { email: string; role: Role }, actor: AuditActor): Promise<AddedMember> {
    try {
      return await inTransaction(db, async (tx) => {
        const now = clock.now();
        const user = await insertUser(tx, org, {
          id: newId('user', now),
          email: normaliseEmail(input.email),
          role: input.role,
          createdAt: now,
        });
        const apiKey = await apiKeys.issue(tx, org, user.id, { name: 'first key', scopes: defaultScopes(input.role) });
        await recordAudit(tx, clock, org, actor, { action: 'member.add', targetType: 'user', targetId: user.id, counts: { api_keys: 1 } });
        return { user, apiKey };
      });
    } catch (error) {
      if (isDuplicateKey(error)) throw new AppError('conflict', 'A member with this email is already in the org');
      throw error;
    }
  }

  return {
    add,

    /**
     * Org admins and owners add a member and get the member's first key. Only an owner
     * may make another owner.
     */
    addMember(principal: Principal, input: { email: string; role: Role }): Promise<AddedMember> {
      requireAdmin(principal, 'add members');
      if (input.role === 'owner' && principal.scope.role !== 'owner') {
        throw new AppError('forbidden', 'Only an owner can make another owner');
      }
      return add(principal.scope, input, actorOf(principal));
    },

    async listMembers(principal: Principal): Promise<UserRow[]> {
      requireAdmin(principal, 'do this');
      return listUsers(db, principal.scope);
    },

    /** A member's memories as metadata only: admins manage them without reading them. */
    async memberMemories(
      principal: Principal,
      userId: string,
      options: { limit: number; cursor?: string },
    ): Promise<{ memories: MemoryMetadata[]; nextCursor: string | null }> {
      requireAdmin(principal, 'do this');
      await member(db, principal.scope, userId);
      const page = await listMemberMemoryMetadata(db, principal.scope, userId, {
        limit: options.limit,
        ...(options.cursor ? { beforeId: beforeIdCursor.decode(options.cursor, 'memory') } : {}),
      });
      const last = page.rows.at(-1);
      return { memories: page.rows, nextCursor: page.hasMore && last ? beforeIdCursor.encode(last.id) : null };
    },

    /** Deletes all of a member's private memories and, with `workstreams`, their workstreams. */
    async purgeMember(principal: Principal, userId: string, options: { workstreams: boolean }): Promise<PurgeCounts> {
      requireAdmin(principal, 'do this');
      const done = await inTransaction(db, async (tx) => {
        await member(tx, principal.scope, userId);
        const result = await purge(tx, principal.scope, userId, options.workstreams);
        await recordAudit(tx, clock, principal.scope, actorOf(principal), {
          action: 'member.purge',
          targetType: 'user',
          targetId: userId,
          counts: { ...result.counts },
        });
        return result;
      });
      await archiver.purgeObjects(done.objectKeys, []);
      return done.counts;
    },

    /**
     * Gives a member another role. Admins change members and admins between those two roles;
     * only owners make or unmake owners (and change an owner); nobody changes their own role;
     * an org keeps an owner. The change applies to the member's next call (cached key holders
     * are dropped, in other processes too). Demoted to member, their keys lose the admin scope; promoted, they
     * need a key with it (issued by the operator, or an OIDC sign-in) for admin powers.
     */
    async changeRole(principal: Principal, userId: string, role: Role): Promise<UserRow> {
      requireAdmin(principal, 'change roles');
      const org = principal.scope;
      const changed = await inTransaction(db, async (tx) => {
        const target = await member(tx, org, userId);
        if (target.removedAt) throw notFound('Member');
        if (target.id === org.userId) throw new AppError('conflict', 'You cannot change your own role; ask another admin or owner');
        if ((target.role === 'owner' || role === 'owner') && org.role !== 'owner') throw new AppError('forbidden', 'Only an owner can make or unmake owners');
        if (target.role === role) return target;
        if (target.role === 'owner' && (await countActiveOwners(tx, org)) <= 1) throw new AppError('conflict', 'An org keeps at least one owner');
        await setUserRole(tx, org, userId, role);
        // A member's key never carries the admin scope; a promoted member gets it on new keys only.
        const keysChanged = role === 'member' ? await withdrawAdminScope(tx, org, userId) : 0;
        // Connected apps were allowed under the old role: the member connects them again.
        const appsRevoked = await deleteUserOAuthRecords(tx, org, userId);
        await recordAudit(tx, clock, org, actorOf(principal), {
          action: 'member.role',
          targetType: 'user',
          targetId: userId,
          counts: { keys_changed: keysChanged, connected_apps_revoked: appsRevoked },
        });
        return { ...target, role };
      });
      // Cached key holders carry the role and scopes: forget them here and in other processes.
      await credentials.changed(org.orgId);
      return changed;
    },

    /**
     * Removes a member: their keys stop working at once and, unless `keepData`, their
     * memories and workstreams are purged. Only owners remove admins and owners; nobody
     * removes themselves; an org keeps an owner.
     */
    async removeMember(
      principal: Principal,
      userId: string,
      options: { keepData: boolean },
    ): Promise<{ user: UserRow; keysRevoked: number; deleted: PurgeCounts }> {
      requireAdmin(principal, 'do this');
      const org = principal.scope;
      const done = await inTransaction(db, async (tx) => {
        const target = await member(tx, org, userId);
        if (target.removedAt) throw notFound('Member');
        if (target.id === org.userId) throw new AppError('conflict', 'You cannot remove yourself; ask another admin or owner');
        if (target.role !== 'member' && org.role !== 'owner') throw new AppError('forbidden', 'Only an owner can remove admins and owners');
        if (target.role === 'owner' && (await countActiveOwners(tx, org)) <= 1) {
          throw new AppError('conflict', 'An org keeps at least one owner');
        }
        const now = clock.now();
        await markUserRemoved(tx, org, userId, now);
        const keysRevoked = await revokeUserKeys(tx, org, userId, now);
        const appsRevoked = await deleteUserOAuthRecords(tx, org, userId);
        const result = options.keepData
          ? { counts: { memories: 0, contexts: 0, workstreams: 0, segments: 0 }, objectKeys: [] }
          : await purge(tx, org, userId, true);
        await recordAudit(tx, clock, org, actorOf(principal), {
          action: 'member.remove',
          targetType: 'user',
          targetId: userId,
          counts: { keys_revoked: keysRevoked, connected_apps_revoked: appsRevoked, ...result.counts },
        });
        return { user: { ...target, removedAt: now }, keysRevoked, ...result };
      });
      await credentials.changed(org.orgId);
      await archiver.purgeObjects(done.objectKeys, []);
      return { user: done.user, keysRevoked: done.keysRevoked, deleted: done.counts };
    },
  };
}
