import {
  inTransaction,
  insertApiKey,
  isId,
  listApiKeys,
  newId,
  revokeApiKey,
  type ApiKeyRecord,
  type ApiKeyScope,
  type Executor,
  type OrgScope,
} from '@memory-bank/db';
import { generateApiKey } from '../auth/api-key-secret';
import type { Principal } from '../auth/principal';
import { AppError, insufficientScope, notFound } from '../errors';
import { actorOf, recordAudit } from './audit';
import type { ServiceDeps } from './deps';

export interface IssuedApiKey {
  record: ApiKeyRecord;
  /** The secret, to show once. */
  key: string;
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;

export function createApiKeyService({ db, clock, credentials }: Pick<ServiceDeps, 'db' | 'clock' | 'credentials'>) {
  /** Creates a key for a user of the org within the caller's transaction. */
  async function issue(
    ex: Executor,
    org: OrgScope,
    userId: string,
    input: { name: string; scopes: ApiKeyScope[]; recallBudgetChars?: number | null },
  ): Promise<IssuedApiKey> {
    const secret = generateApiKey();
    const now = clock.now();
    const record = await insertApiKey(ex, org, userId, {
      id: newId('apiKey', now),
      name: input.name,
      keyHash: secret.hash,
      displayPrefix: secret.displayPrefix,
      scopes: [...new Set(input.scopes)],
      recallBudgetChars: input.recallBudgetChars ?? null,
      createdAt: now,
    });
    return { record, key: secret.key };
  }

  return {
    issue,

    /** A new key for the caller, with at most the caller's own scopes. */
    async create(principal: Principal, input: { name: string; scopes?: ApiKeyScope[]; recallBudgetChars?: number | null }): Promise<IssuedApiKey> {
      const scopes = input.scopes ?? [...principal.scopes];
      const beyond = scopes.filter((scope) => !principal.scopes.includes(scope));
      if (beyond.length > 0) {
        throw new AppError('forbidden', `A key can only carry scopes its creator's key has; not: ${beyond.join(', ')}`);
      }
      return inTransaction(db, async (tx) => {
        const issued = await issue(tx, principal.scope, principal.scope.userId, { name: input.name, scopes, recallBudgetChars: input.recallBudgetChars ?? null });
        await recordAudit(tx, clock, principal.scope, actorOf(principal), { action: 'api_key.create', targetType: 'api_key', targetId: issued.record.id });
        return issued;
      });
    },

    list(principal: Principal): Promise<ApiKeyRecord[]> {
      return listApiKeys(db, principal.scope);
    },

    /**
     * Revokes one of the caller's keys: it stops working with the next request. Any key
     * may revoke itself (whoever holds a leaked key can always kill it); revoking another
     * key needs `keys:manage`, checked before the id so a narrow key learns nothing.
     */
    async revoke(principal: Principal, keyId: string): Promise<void> {
      if (keyId !== principal.keyId && !principal.scopes.includes('keys:manage')) throw insufficientScope(['keys:manage']);
      if (!isId('apiKey', keyId)) throw notFound('API key');
      await inTransaction(db, async (tx) => {
        if (!(await revokeApiKey(tx, principal.scope, keyId, clock.now()))) throw notFound('API key');
        await recordAudit(tx, clock, principal.scope, actorOf(principal), { action: 'api_key.revoke', targetType: 'api_key', targetId: keyId });
      });
      await credentials.changed(principal.scope.orgId);
    },
  };
}
