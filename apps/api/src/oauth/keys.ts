import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { newId, type Database } from '@memory-bank/db';
import { deleteOAuthKey, insertOAuthKey, listOAuthKeys } from '@memory-bank/db/system';
import type { JWK } from 'oidc-provider';
import type { Clock } from '../clock';

export interface OAuthKeys {
  /** Private JWKs, newest first: the first signs, every one verifies. */
  signing: JWK[];
  /** Cookie secrets, newest first: the first signs, every one verifies. */
  cookies: string[];
}

function newSigningKey(id: string): JWK {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { ...(privateKey.export({ format: 'jwk' }) as JWK), kid: id, alg: 'ES256', use: 'sig' };
}

/** Adds a signing key and a cookie secret; the newest sign from then on (`pnpm cli oauth rotate-keys`). */
export async function addOAuthKeys(db: Database, clock: Clock): Promise<void> {
  const now = clock.now();
  const signingId = newId('oauthKey', now);
  await insertOAuthKey(db, { id: signingId, kind: 'signing', secret: JSON.stringify(newSigningKey(signingId)), createdAt: now });
  await insertOAuthKey(db, { id: newId('oauthKey', now), kind: 'cookie', secret: randomBytes(32).toString('base64url'), createdAt: now });
}

/**
 * The keys every replica signs and verifies with, from the database; made on first use.
 * Replicas starting together may each make a pair: all are kept and all verify.
 */
export async function loadOAuthKeys(db: Database, clock: Clock): Promise<OAuthKeys> {
  let rows = await listOAuthKeys(db);
  if (!rows.some((row) => row.kind === 'signing') || !rows.some((row) => row.kind === 'cookie')) {
    await addOAuthKeys(db, clock);
    rows = await listOAuthKeys(db);
  }
  const newestFirst = [...rows].reverse();
  return {
    signing: newestFirst.filter((row) => row.kind === 'signing').map((row) => JSON.parse(row.secret) as JWK),
    cookies: newestFirst.filter((row) => row.kind === 'cookie').map((row) => row.secret),
  };
}

/** Deletes every key but the newest of each kind; the ids it deleted. */
export async function retireOAuthKeys(db: Database): Promise<string[]> {
  const newestFirst = [...(await listOAuthKeys(db))].reverse();
  const kept = new Set<string>();
  const retired: string[] = [];
  for (const key of newestFirst) {
    if (!kept.has(key.kind)) kept.add(key.kind);
    else if (await deleteOAuthKey(db, key.id)) retired.push(key.id);
  }
  return retired;
}
