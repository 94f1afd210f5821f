import type { Principal } from '../auth/principal';

/**
 * Admits or refuses an authenticated request (rate limits). Called once per HTTP request,
 * right after authentication; throws a rate_limited AppError to refuse, and may set
 * response headers (the limits' state) either way.
 */
export interface RequestLimiter {
  admit(principal: Principal, setHeader: (name: string, value: string) => void): Promise<void>;
  close(): Promise<void>;
}

/** The limiter when limits are off. */
export const unlimited: RequestLimiter = { admit: async () => {}, close: async () => {} };
