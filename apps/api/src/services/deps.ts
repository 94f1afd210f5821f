import type { Database } from '@memory-bank/db';
import type { Logger } from 'pino';
import type { Config } from '../config';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** What services need from the outside world. */
export interface ServiceDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  config: Config;
}
