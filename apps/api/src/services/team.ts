import {
  inTransaction,
  countActiveOwners,
  deleteOrgAudit,
  deleteOrgRow,
  findOrg,
  isId,
  listMemberMemoryMetadata,
  listUsers,
  lockUser,
  markUserRemoved,
  orgFootprint,
  purgeMemberMemories,
  purgeMemberWorkstreams,
  purgeOrgWorkstreams,
  revokeUserKeys,
  type Executor,
  type MemoryMetadata,
  type OrgScope,
  type UserRow,
} from '@memory-bank/db';
import type { Archiver } from '../archive/sealer';
import { requireAdmin, type Principal } from '../auth/principal';
import { AppError, notFound } from '../errors';
import { actorOf, operatorActor, recordAudit, type AuditActor } from './audit';
import { beforeIdCursor } from './cursor';
import type { ServiceDeps } from './deps';

export interface PurgeCounts {
  memories: number;
  contexts: number;
  workstreams: number;
  segments: number;
}

export type TeamService = ReturnType<typeof createTeamService>;

/**
 * What team admins do to members and their data, and what the operator does to whole
 * orgs. Every destructive action is audited in its own transaction; objects in storage are
 * deleted right after the commit (and retried until they are gone).
 */
export function createTeamService({ db, clock }: ServiceDeps, archiver: Archiver) {
  /** Deletes a member's private memories and, optionally, their workstreams, in `tx`. */
  async function purge(tx: Executor, org: OrgScope, userId: string, withWorkstreams: boolean) {
    const memories = await purgeMemberMemories(tx, org, userId);
    const workstreams = withWorkstreams
      ? await purgeMemberWorkstreams(tx, org, userId, clock.now())
      : { workstreams: 0, segments: 0, objectKeys: [] as string[], events: 0 };
    const counts: PurgeCounts = { ...memories, workstreams: workstreams.workstreams, segments: workstreams.segments };
    return { counts, objectKeys: workstreams.objectKeys };
  }

  async function member(ex: Executor, principal: Principal, userId: string): Promise<UserRow> {
    const found = isId('user', userId) ? await lockUser(ex, principal, userId) : null;
    if (!found) throw notFound('Member');
    return found;
  }

  return {
    async listMembers(principal: Principal): Promise<UserRow[]> {
      requireAdmin(principal, 'do this');
      return listUsers(db, principal);
    },

    /** A member's memories as metadata only: admins manage them without reading them. */
    async memberMemories(
      principal: Principal,
      userId: string,
      options: { limit: number; cursor?: string },
    ): Promise<{ memories: MemoryMetadata[]; nextCursor: string | null }> {
      requireAdmin(principal, 'do this');
      await member(db, principal, userId);
      const page = await listMemberMemoryMetadata(db, principal, userId, {
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
        await member(tx, principal, userId);
        const result = await purge(tx, principal, userId, options.workstreams);
        await recordAudit(tx, clock, principal.orgId, actorOf(principal), {
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
      const done = await inTransaction(db, async (tx) => {
        const target = await member(tx, principal, userId);
        if (target.removedAt) throw notFound('Member');
        if (target.id === principal.userId) throw new AppError('conflict', 'You cannot remove yourself; ask another admin or owner');
        if (target.role !== 'member' && principal.role !== 'owner') throw new AppError('forbidden', 'Only an owner can remove admins and owners');
        if (target.role === 'owner' && (await countActiveOwners(tx, principal)) <= 1) {
          throw new AppError('conflict', 'An org keeps at least one owner');
        }
        const now = clock.now();
        await markUserRemoved(tx, principal, userId, now);
        const keysRevoked = await revokeUserKeys(tx, { orgId: principal.orgId, userId }, now);
        const result = options.keepData
          ? { counts: { memories: 0, contexts: 0, workstreams: 0, segments: 0 }, objectKeys: [] }
          : await purge(tx, principal, userId, true);
        await recordAudit(tx, clock, principal.orgId, actorOf(principal), {
          action: 'member.remove',
          targetType: 'user',
          targetId: userId,
          counts: { keys_revoked: keysRevoked, ...result.counts },
        });
        return { user: { ...target, removedAt: now }, keysRevoked, ...result };
      });
      await archiver.purgeObjects(done.objectKeys, []);
      return { user: done.user, keysRevoked: done.keysRevoked, deleted: done.counts };
    },

    /** Operator: deletes an org and everything it holds, object storage included. */
    async deleteOrg(orgId: string, requestId: string) {
      const org = { orgId };
      const actor: AuditActor = operatorActor(requestId);
      const done = await inTransaction(db, async (tx) => {
        if (!isId('org', orgId) || !(await findOrg(tx, org))) throw notFound('Org');
        const footprint = await orgFootprint(tx, org);
        const workstreams = await purgeOrgWorkstreams(tx, org, clock.now());
        await deleteOrgAudit(tx, org);
        await deleteOrgRow(tx, org);
        const counts = {
          memories: footprint.memories,
          contexts: footprint.contexts,
          workstreams: workstreams.workstreams,
          segments: workstreams.segments,
          users: footprint.users,
          api_keys: footprint.apiKeys,
        };
        await recordAudit(tx, clock, orgId, actor, { action: 'org.delete', targetType: 'org', targetId: orgId, counts });
        return { counts, objectKeys: workstreams.objectKeys };
      });
      await archiver.purgeObjects(done.objectKeys, [`orgs/${orgId}/`]);
      return done.counts;
    },
  };
}

