import type { DatabaseHandle } from '@memory-bank/db/system';
import type { Services } from '../../src/services';
import type { Measurement } from '../load';
import type { Tenant } from '../seed';
import type { RunningService } from '../service';

export interface Scale {
  name: 'smoke' | 'small' | 'medium' | 'large';
  tenants: number;
  perTenant: number;
  /** Seconds per HTTP or driver load. */
  seconds: number;
  concurrency: number[];
  /** Concurrency of the hook ingestion loads. */
  ingestConcurrency: number;
  /**
   * Batches each ingestion connection sends (a batch can outlast a timed load, whose
   * unanswered requests would go uncounted, so batches are sent by number).
   */
  batchRounds: number;
  /** Requests per sequential latency measurement. */
  sequential: number;
  startups: number;
}

export const SCALES: Record<Scale['name'], Scale> = {
  smoke: { name: 'smoke', tenants: 3, perTenant: 200, seconds: 1, concurrency: [4], ingestConcurrency: 4, batchRounds: 1, sequential: 30, startups: 1 },
  small: { name: 'small', tenants: 20, perTenant: 1000, seconds: 5, concurrency: [16, 64], ingestConcurrency: 32, batchRounds: 2, sequential: 300, startups: 3 },
  medium: { name: 'medium', tenants: 200, perTenant: 1000, seconds: 10, concurrency: [16, 64], ingestConcurrency: 32, batchRounds: 4, sequential: 500, startups: 5 },
  large: { name: 'large', tenants: 1000, perTenant: 1000, seconds: 10, concurrency: [16, 64], ingestConcurrency: 32, batchRounds: 4, sequential: 500, startups: 5 },
};

/** A computed figure and the target it is read against (targets are goals, not assertions). */
export interface Ratio {
  name: string;
  value: number;
  target: string;
  met: boolean;
}

export interface ScenarioReport {
  scenario: string;
  measurements: Measurement[];
  ratios: Ratio[];
  notes: string[];
}

export interface BenchContext {
  scale: Scale;
  database: DatabaseHandle;
  databaseUrl: string;
  /** The database server (no database), where a scenario may create a database of its own. */
  databaseServerUrl: string;
  /** Statements drizzle sends while `capturing` is set. */
  capture: { capturing: { sql: string; params: unknown[] }[] | null };
  services: Services;
  service: RunningService;
  probe: Tenant;
  /** A tenant the save workloads write to (the probe's data stays fixed). */
  writer: Tenant;
  queries: string[];
  /** Quoted phrases, prefixes and questions from the probe's texts. */
  typedQueries: string[];
  /** Peak RSS of the service seen during each scenario's loads, bytes. */
  peakRss: Record<string, number>;
  /** Connections in the service's pool and in the benchmark's own (the raw driver's). */
  poolSize: number;
  /** The service's environment (to start more instances, e.g. for start-up timing). */
  serviceEnv: Record<string, string>;
}

export function ratio(name: string, value: number, target: string, met: boolean): Ratio {
  return { name, value: Math.round(value * 1000) / 1000, target, met };
}
