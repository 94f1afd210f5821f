import { createHash } from 'node:crypto';
import type { Database } from '@memory-bank/db';
import {
  consumeOAuthRecord,
  destroyOAuthRecord,
  findOAuthRecord,
  findOAuthRecordByUid,
  revokeOAuthRecordsOfGrant,
  upsertOAuthRecord,
} from '@memory-bank/db/system';
import type { OAuthRecordRow } from '@memory-bank/db';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Clock } from '../clock';
import { OAUTH_TTL } from './settings';

/** The digest a record is stored under: a token's id is the token, never stored as such. */
export const recordRef = (model: string, id: string): string => createHash('sha256').update(`${model}:${id}`).digest('hex');

/**
 * Models whose id is a bearer secret (the id is left out of the stored payload). Not the
 * browser's session at the authorization server: it is looked up by uid, which needs its id.
 */
const SECRET_IDS = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'ClientCredentials', 'RegistrationAccessToken', 'InitialAccessToken', 'DeviceCode', 'PushedAuthorizationRequest', 'ReplayDetection', 'BackchannelAuthenticationRequest']);

export interface AdapterDeps {
  db: Database;
  clock: Clock;
  /** A grant deleted by the authorization server itself (a reused refresh token, RFC 7009 revocation). */
  onGrantDestroyed?: (row: OAuthRecordRow) => Promise<void>;
}

function payloadOf(model: string, id: string, row: OAuthRecordRow | null): AdapterPayload | undefined {
  if (!row) return undefined;
  const payload = { ...row.payload } as AdapterPayload;
  if (SECRET_IDS.has(model) && (payload.jti as unknown) === true) payload.jti = id;
  if (row.consumedAt) payload.consumed = Math.floor(row.consumedAt.getTime() / 1000);
  return payload;
}

/** The account a payload is for: tokens and grants name it; a session and an interaction hold it too. */
function accountOf(payload: AdapterPayload): string | null {
  const account = payload.accountId ?? payload.session?.accountId;
  return typeof account === 'string' && account.startsWith('usr_') ? account : null;
}

/**
 * oidc-provider's storage (its Adapter interface) in MySQL, one class per model name.
 * Registered clients that never get a grant expire (OAUTH_TTL.unusedClient).
 */
export function mysqlAdapter({ db, clock, onGrantDestroyed }: AdapterDeps): new (model: string) => Adapter {
  return class MysqlAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const now = clock.now();
      const stored: Record<string, unknown> = { ...payload };
      if (SECRET_IDS.has(this.model) && stored.jti === id) stored.jti = true;
      delete stored.consumed;
      const seconds = expiresIn ?? (this.model === 'Client' ? OAUTH_TTL.unusedClient : undefined);
      await upsertOAuthRecord(db, {
        ref: recordRef(this.model, id),
        model: this.model,
        payload: stored,
        grantId: this.model === 'Grant' ? id : (payload.grantId ?? null),
        uid: payload.uid ?? null,
        userId: accountOf(payload),
        clientId: this.model === 'Client' ? id : (payload.clientId ?? null),
        createdAt: now,
        expiresAt: seconds === undefined ? null : new Date(now.getTime() + seconds * 1000),
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const row = await findOAuthRecord(db, recordRef(this.model, id));
      if (row && row.expiresAt && row.expiresAt <= clock.now()) return undefined;
      return payloadOf(this.model, id, row);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const row = await findOAuthRecordByUid(db, this.model, uid);
      if (!row || (row.expiresAt && row.expiresAt <= clock.now())) return undefined;
      return payloadOf(this.model, '', row);
    }

    async findByUserCode(): Promise<AdapterPayload | undefined> {
      return undefined; // No device flow.
    }

    async consume(id: string): Promise<void> {
      await consumeOAuthRecord(db, recordRef(this.model, id), clock.now());
    }

    async destroy(id: string): Promise<void> {
      const row = await destroyOAuthRecord(db, recordRef(this.model, id));
      if (row && this.model === 'Grant') await onGrantDestroyed?.(row);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await revokeOAuthRecordsOfGrant(db, this.model, grantId);
    }
  };
}
