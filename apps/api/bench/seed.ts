import { newId, type Database } from '@memory-bank/db';
import { FULLTEXT_INDEXES, createFulltextIndex, dropFulltextIndex, insertMemoriesBulk, openDatabase, type DatabaseHandle } from '@memory-bank/db/system';
import { pino } from 'pino';
import { createApp, type MemoryBankApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { Services } from '../src/services';
import { tenantMemories } from './corpus';

export interface Tenant {
  index: number;
  orgId: string;
  userId: string;
  key: string;
  /** The texts seeded for this tenant (empty until seeded). */
  texts: string[];
}

/**
 * A bench database's pool and an app on it in this process, words only: to provision tenants
 * through the services and read what the service wrote. `logQuery` hears every statement.
 */
export function openBenchApp(
  url: string,
  options: { poolSize: number; env?: Record<string, string>; logQuery?: (sql: string, params: unknown[]) => void },
): { handle: DatabaseHandle; app: MemoryBankApp; close(): Promise<void> } {
  const handle = openDatabase(url, { poolSize: options.poolSize, ...(options.logQuery && { logQuery: options.logQuery }) });
  const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', EMBEDDINGS_PROVIDER: 'none', ...options.env });
  const app = createApp({ db: handle.db, config, logger: pino({ level: 'silent' }) });
  return {
    handle,
    app,
    async close() {
      await app.close({ flush: false }).catch(() => undefined);
      await handle.close();
    },
  };
}

/** Orgs with an owner and a key each, made through the same services the API uses. */
export async function provisionTenants(services: Services, indexes: number[]): Promise<Tenant[]> {
  const tenants: Tenant[] = [];
  for (const index of indexes) {
    const created = await services.operator.provision({ name: `bench tenant ${index}`, ownerEmail: `owner-${index}@bench.example` }, 'bench-seed');
    tenants.push({ index, orgId: created.org.id, userId: created.user.id, key: created.apiKey.key, texts: [] });
  }
  return tenants;
}

const CHUNK = 2000;

/** Seeds each tenant's memories (deterministic texts) with multi-row inserts. */
export async function seedMemories(db: Database, tenants: Tenant[], perTenant: number): Promise<number> {
  let inserted = 0;
  for (const tenant of tenants) {
    tenant.texts = tenantMemories(tenant.index, perTenant);
    const base = Date.now() - perTenant * 1000;
    for (let offset = 0; offset < tenant.texts.length; offset += CHUNK) {
      const rows = tenant.texts.slice(offset, offset + CHUNK).map((content, i) => {
        const createdAt = new Date(base + (offset + i) * 1000);
        return { id: newId('memory', createdAt), orgId: tenant.orgId, userId: tenant.userId, scope: 'user' as const, source: 'api' as const, content, tags: [], createdAt };
      });
      await insertMemoriesBulk(db, rows);
      inserted += rows.length;
    }
  }
  return inserted;
}

/**
 * Runs a large load with the memory table's FULLTEXT indexes dropped, then builds them
 * again in one pass each — much faster than maintaining them row by row.
 */
export async function withFulltextRebuilt<T>(db: Database, load: () => Promise<T>): Promise<T> {
  const indexes = FULLTEXT_INDEXES.filter((index) => index.table === 'memory');
  for (const index of indexes) await dropFulltextIndex(db, index);
  try {
    return await load();
  } finally {
    for (const index of indexes) await createFulltextIndex(db, index);
  }
}
