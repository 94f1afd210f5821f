import type { Context } from 'hono';
import type { Principal } from '../auth/principal';
import type { AppEnv } from './env';

/**
 * Admits or refuses an authenticated request (rate limits). Called once per HTTP request,
 * right after authentication; throws a 429 AppError to refuse, and may set headers.
 */
export interface RequestLimiter {
  admit(c: Context<AppEnv>, principal: Principal): Promise<void>;
  close(): Promise<void>;
}

/** The limiter when limits are off. */
export const unlimited: RequestLimiter = { admit: async () => {}, close: async () => {} };
