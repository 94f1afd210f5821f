import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  deleteExpiredIdempotencyKey,
  findIdempotencyKey,
  inTransaction,
  isDuplicateKey,
  type Executor,
} from '@memory-bank/db';
import type { Principal } from '../auth/principal';
import { AppError } from '../errors';
import { canonicalJson, sha256Hex } from '../hooks/canonical';
import { IDEMPOTENCY_LIMITS } from '../limits';
import type { ServiceDeps } from './deps';

/** A write a client may retry: its key, the operation, and the validated request it carries. */
export interface IdempotentRequest {
  key: string;
  /** The operationId: a key reused on another operation is a different request (422). */
  operation: string;
  request: unknown;
}

/** What the first request did: its status and the id of what it created. */
export interface FirstAnswer<T> {
  status: number;
  resultId: string;
  result: T;
}

export interface IdempotentOutcome<T> {
  status: number;
  result: T;
  /** True when this is a retry answered from the first request's outcome. */
  replayed: boolean;
}

/** The claim lost to a committed one: read it and replay. */
class KeyTaken extends Error {}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;

/**
 * Idempotency-Key for writes (RFC draft-ietf-httpapi-idempotency-key-header). Generic: an
 * operation hands `perform` (the write, in the transaction that claims the key) and
 * `replay` (re-reads the answer from the id of what the write created); memory creation
 * uses it, and an import route can use it as it is.
 *
 * The key is claimed first, in the write's transaction, so of concurrent requests with the
 * same key one writes and the others wait on its row, then replay. A write that fails rolls
 * its claim back: errors are not remembered, a retry runs again. Only hashes and the result
 * id are stored, never a body: a replay re-reads the resource as it is now (a deleted one
 * answers 404). Expired keys are deleted in the background (services/maintenance.ts).
 */
export function createIdempotencyService({ db, clock }: Pick<ServiceDeps, 'db' | 'clock'>) {
  return {
    async once<T>(
      principal: Principal,
      request: IdempotentRequest,
      steps: { perform(ex: Executor): Promise<FirstAnswer<T>>; replay(resultId: string): Promise<T> },
    ): Promise<IdempotentOutcome<T>> {
      const caller = principal.scope;
      const keyHash = sha256Hex(request.key);
      const requestHash = sha256Hex(`${request.operation}\n${canonicalJson(request.request)}`);
      // Attempts: the key may have expired (deleted, claim again) or its claim rolled back.
      for (let attempt = 0; attempt < 3; attempt++) {
        const now = clock.now();
        const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_LIMITS.keyTtlMs);
        try {
          const first = await inTransaction(db, async (tx) => {
            try {
              await claimIdempotencyKey(tx, caller, { keyHash, requestHash, createdAt: now });
            } catch (error) {
              if (isDuplicateKey(error)) throw new KeyTaken();
              throw error;
            }
            const answer = await steps.perform(tx);
            await completeIdempotencyKey(tx, caller, keyHash, { status: answer.status, resultId: answer.resultId });
            return answer;
          });
          return { status: first.status, result: first.result, replayed: false };
        } catch (error) {
          if (!(error instanceof KeyTaken)) throw error;
        }
        const taken = await findIdempotencyKey(db, caller, keyHash);
        if (!taken) continue;
        if (taken.createdAt < expiredBefore) {
          await deleteExpiredIdempotencyKey(db, caller, keyHash, expiredBefore);
          continue;
        }
        if (taken.requestHash !== requestHash) {
          throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used for a different request; use a new key for a new request');
        }
        if (taken.status === null || taken.resultId === null) continue;
        return { status: taken.status, result: await steps.replay(taken.resultId), replayed: true };
      }
      throw new AppError('unavailable', 'Another request with this Idempotency-Key kept it busy; retry', { retryAfterSeconds: 1 });
    },
  };
}
