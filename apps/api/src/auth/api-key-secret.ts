import { createHash, randomBytes } from 'node:crypto';

/** Our keys: `mbk_` and 40 base64url characters (240 random bits). */
export const API_KEY_PREFIX = 'mbk_';
const API_KEY_PATTERN = /^mbk_[A-Za-z0-9_-]{40}$/;
const DISPLAY_PREFIX_LENGTH = 12;

export interface ApiKeySecret {
  /** The key itself: shown to its owner once, never stored. */
  key: string;
  /** SHA-256 of the key, hex: what the database keeps. */
  hash: string;
  /** `mbk_` and the first 8 characters: enough to recognise a key in a list. */
  displayPrefix: string;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function generateApiKey(): ApiKeySecret {
  const key = API_KEY_PREFIX + randomBytes(30).toString('base64url');
  return { key, hash: hashApiKey(key), displayPrefix: key.slice(0, DISPLAY_PREFIX_LENGTH) };
}

/** True when `value` has the shape of one of our keys (anything else never reaches SQL). */
export function looksLikeApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}
