import {
  API_KEY_SCOPES,
  findKeyHolder,
  findKeyOwnerForOperator,
  findUserForOperator,
  insertApiKey,
  listApiKeys,
  newId,
  revokeApiKey,
  touchApiKey,
  isId,
  type ApiKeyRecord,
  type ApiKeyScope,
  type Executor,
  type OwnerScope,
  type Role,
} from '@memory-bank/db';
import { generateApiKey, hashApiKey, looksLikeApiKey } from '../auth/api-key-secret';
import { insufficientScope } from '../auth/bearer';
import { ownerScope, type Principal } from '../auth/principal';
import { AppError, notFound } from '../errors';
import { errorForLog } from '../logger';
import { actorOf, operatorActor, recordAudit } from './audit';
import type { ServiceDeps } from './deps';

/** How often at most a key's last_used_at is written. */
const TOUCH_INTERVAL_MS = 60_000;

/** The scopes a user of this role gets on keys made for them by default. */
export function defaultScopes(role: Role): ApiKeyScope[] {
  return role === 'member' ? API_KEY_SCOPES.filter((scope) => scope !== 'admin') : [...API_KEY_SCOPES];
}

export interface IssuedApiKey {
  record: ApiKeyRecord;
  /** The secret, to show once. */
  key: string;
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;

export function createApiKeyService({ db, clock, logger }: ServiceDeps) {
  /** Creates a key for `owner` within the caller's transaction. */
  async function issue(
    ex: Executor,
    owner: Pick<OwnerScope, 'orgId' | 'userId'>,
    input: { name: string; scopes: ApiKeyScope[] },
  ): Promise<IssuedApiKey> {
    const secret = generateApiKey();
    const now = clock.now();
    const record = await insertApiKey(ex, owner, {
      id: newId('apiKey', now),
      name: input.name,
      keyHash: secret.hash,
      displayPrefix: secret.displayPrefix,
      scopes: [...new Set(input.scopes)],
      createdAt: now,
    });
    return { record, key: secret.key };
  }

  async function operatorTarget(userId: string): Promise<OwnerScope> {
    const user = isId('user', userId) ? await findUserForOperator(db, userId) : null;
    if (!user) throw notFound('User');
    return { orgId: user.orgId, userId: user.id, role: user.role };
  }

  return {
    issue,

    /** The principal behind a bearer key, or null for an unknown, malformed or revoked key. */
    async authenticate(key: string, requestId: string): Promise<Principal | null> {
      if (!looksLikeApiKey(key)) return null;
      const holder = await findKeyHolder(db, hashApiKey(key));
      if (!holder) return null;
      const now = clock.now();
      if (!holder.lastUsedAt || now.getTime() - holder.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
        touchApiKey(db, holder.keyId, now).catch((error: unknown) =>
          logger.warn({ error: errorForLog(error), key_id: holder.keyId }, 'could not record key use'),
        );
      }
      return {
        via: 'api_key',
        keyId: holder.keyId,
        requestId,
        orgId: holder.orgId,
        userId: holder.userId,
        role: holder.role,
        scopes: holder.scopes,
      };
    },

    /** A new key for the caller, with at most the caller's own scopes. */
    async create(principal: Principal, input: { name: string; scopes?: ApiKeyScope[] }): Promise<IssuedApiKey> {
      const scopes = input.scopes ?? [...principal.scopes];
      const beyond = scopes.filter((scope) => !principal.scopes.includes(scope));
      if (beyond.length > 0) {
        throw new AppError('forbidden', `A key can only carry scopes its creator's key has; not: ${beyond.join(', ')}`);
      }
      return db.transaction(async (tx) => {
        const issued = await issue(tx, principal, { name: input.name, scopes });
        await recordAudit(tx, clock, principal.orgId, actorOf(principal), { action: 'api_key.create', targetType: 'api_key', targetId: issued.record.id });
        return issued;
      });
    },

    list(principal: Principal): Promise<ApiKeyRecord[]> {
      return listApiKeys(db, ownerScope(principal));
    },

    /** Operator (CLI): a key for any user, with any scopes their role allows. */
    async issueAsOperator(userId: string, input: { name: string; scopes?: ApiKeyScope[] }, requestId: string): Promise<IssuedApiKey> {
      const user = await operatorTarget(userId);
      const scopes = input.scopes ?? defaultScopes(user.role);
      if (scopes.includes('admin') && user.role === 'member') {
        throw new AppError('forbidden', 'A member cannot hold a key with the admin scope');
      }
      return db.transaction(async (tx) => {
        const issued = await issue(tx, user, { name: input.name, scopes });
        await recordAudit(tx, clock, user.orgId, operatorActor(requestId), { action: 'api_key.create', targetType: 'api_key', targetId: issued.record.id });
        return issued;
      });
    },

    /** Operator (CLI): every key of a user. */
    async listAsOperator(userId: string): Promise<ApiKeyRecord[]> {
      return listApiKeys(db, await operatorTarget(userId));
    },

    /** Operator (CLI): revokes any key. */
    async revokeAsOperator(keyId: string, requestId: string): Promise<void> {
      const owner = isId('apiKey', keyId) ? await findKeyOwnerForOperator(db, keyId) : null;
      if (!owner) throw notFound('API key');
      await db.transaction(async (tx) => {
        if (!(await revokeApiKey(tx, owner, keyId, clock.now()))) throw notFound('API key');
        await recordAudit(tx, clock, owner.orgId, operatorActor(requestId), { action: 'api_key.revoke', targetType: 'api_key', targetId: keyId });
      });
    },

    /**
     * Revokes one of the caller's keys: it stops working with the next request. Any key
     * may revoke itself (whoever holds a leaked key can always kill it); revoking another
     * key needs `keys:manage`, checked before the id so a narrow key learns nothing.
     */
    async revoke(principal: Principal, keyId: string): Promise<void> {
      if (keyId !== principal.keyId && !principal.scopes.includes('keys:manage')) throw insufficientScope(['keys:manage']);
      if (!isId('apiKey', keyId)) throw notFound('API key');
      await db.transaction(async (tx) => {
        if (!(await revokeApiKey(tx, ownerScope(principal), keyId, clock.now()))) throw notFound('API key');
        await recordAudit(tx, clock, principal.orgId, actorOf(principal), { action: 'api_key.revoke', targetType: 'api_key', targetId: keyId });
      });
    },
  };
}
