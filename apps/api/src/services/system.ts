import { databaseReachable, migrationStatus } from '@memory-bank/db/system';
import type { ServiceDeps } from './deps';

export interface Readiness {
  ready: boolean;
  database: 'ok' | 'unreachable';
  migrations: 'current' | 'pending' | 'unknown';
  pending: string[];
}

export type SystemService = ReturnType<typeof createSystemService>;

export function createSystemService({ db }: Pick<ServiceDeps, 'db'>) {
  // Migrations never go backwards while we run: once current, stop asking.
  let migrationsCurrent = false;
  return {
    async readiness(): Promise<Readiness> {
      if (!(await databaseReachable(db))) return { ready: false, database: 'unreachable', migrations: 'unknown', pending: [] };
      if (migrationsCurrent) return { ready: true, database: 'ok', migrations: 'current', pending: [] };
      const status = await migrationStatus(db);
      migrationsCurrent = status.pending.length === 0;
      return {
        ready: migrationsCurrent,
        database: 'ok',
        migrations: migrationsCurrent ? 'current' : 'pending',
        pending: status.pending,
      };
    },
  };
}
