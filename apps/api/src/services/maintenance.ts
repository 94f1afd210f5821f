import { deleteExpiredOAuthRecords, purgeExpiredIdempotencyKeysEverywhere } from '@memory-bank/db/system';
import { errorForLog } from '../logger';
import { IDEMPOTENCY_LIMITS } from '../limits';
import type { ServiceDeps } from './deps';

/** How often the maintenance loop runs. */
const INTERVAL_MS = 60_000;
/** Per pass: orgs visited, expired keys deleted per org, and passes per run at most. */
const PURGE = { orgs: 100, batch: 1000, passes: 10 };

export type Maintenance = ReturnType<typeof createMaintenance>;

/**
 * Housekeeping the request path should not pay for, in the background of the API process:
 * expired Idempotency-Keys are deleted here in bounded batches (a keyed save used to
 * send a DELETE of its own after every write), and so are the authorization server's
 * expired records (codes, tokens, sessions, unused client registrations). Nothing here is
 * needed for correctness — what expired is treated as absent wherever it is read — only to
 * keep the tables small.
 */
export function createMaintenance({ db, clock, logger }: Pick<ServiceDeps, 'db' | 'clock' | 'logger'>) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  /** One run: expired keys until none are left or PURGE.passes passes. Returns how many were deleted. */
  async function runOnce(): Promise<number> {
    const before = new Date(clock.now().getTime() - IDEMPOTENCY_LIMITS.keyTtlMs);
    let deleted = 0;
    for (let pass = 0; pass < PURGE.passes; pass++) {
      const result = await purgeExpiredIdempotencyKeysEverywhere(db, before, PURGE);
      deleted += result.deleted;
      if (!result.full) break;
    }
    for (let pass = 0; pass < PURGE.passes; pass++) {
      const expired = await deleteExpiredOAuthRecords(db, clock.now(), PURGE.batch);
      deleted += expired;
      if (expired < PURGE.batch) break;
    }
    return deleted;
  }

  function schedule(): void {
    timer = setTimeout(() => {
      running = runOnce()
        .then(
          (deleted) => {
            if (deleted > 0) logger.info({ deleted }, 'expired idempotency keys and authorization records deleted');
          },
          (error: unknown) => logger.warn({ error: errorForLog(error) }, 'could not delete expired idempotency keys and authorization records; retrying later'),
        )
        .finally(() => {
          running = undefined;
          if (timer) schedule();
        });
    }, INTERVAL_MS);
    timer.unref();
  }

  return {
    runOnce,
    /** Runs every INTERVAL_MS until stop(). */
    start(): void {
      if (!timer) schedule();
    },
    async stop(): Promise<void> {
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
