import type { Database } from '@memory-bank/db';
import type { Logger } from 'pino';
import type { CredentialChanges } from '../auth/credential-cache';
import type { Clock } from '../clock';
import type { Config } from '../config';

/** What services need from the outside world. */
export interface ServiceDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  config: Config;
  /** Told of every change to who a credential is and what it may do (the key cache forgets). */
  credentials: CredentialChanges;
}
