import { z } from '@hono/zod-openapi';
import { IDEMPOTENCY_LIMITS } from '../limits';

/** The request header of a write a client may retry (any route can take it). */
export const IdempotencyKeyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(IDEMPOTENCY_LIMITS.keyPattern, { message: 'Must be 1–128 visible ASCII characters' })
    .optional()
    .openapi({
      description:
        'Makes the write safe to retry: the same key with the same body within 24 hours answers the first result again (`Idempotent-Replayed: true`); with another body, 422. 1–128 visible ASCII characters, e.g. a UUID.',
    }),
});

/** Set on an answer replayed from an earlier request with the same Idempotency-Key. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

export const replayedResponseHeader = {
  [REPLAYED_HEADER]: {
    description: '`true` when this answer replays the first request sent with the same Idempotency-Key (nothing was written again).',
    schema: { type: 'string' as const, enum: ['true'] },
  },
};
