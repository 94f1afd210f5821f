import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@memory-bank/db/system';
import { createApp } from '../../../apps/api/src/app';
import { loadConfig } from '../../../apps/api/src/config';
import { createLogger } from '../../../apps/api/src/logger';

/**
 * The service's OpenAPI 3.1 document, built in this process from `createApp` with the
 * default configuration: no server, no network. The database pool is never used (a pool
 * connects on its first query), so the URL names nothing that must exist.
 */
export async function serviceOpenApiDocument(): Promise<string> {
  const archiveDir = await mkdtemp(join(tmpdir(), 'mb-client-generate-'));
  const config = loadConfig({ DATABASE_URL: 'mysql://root@127.0.0.1:3306/unused', LOG_LEVEL: 'silent', ARCHIVE_URL: `file://${archiveDir}` });
  const database = openDatabase(config.DATABASE_URL, { poolSize: 1 });
  const built = createApp({ db: database.db, config, logger: createLogger(config) });
  try {
    const response = await built.app.request('/openapi.json');
    if (!response.ok) throw new Error(`/openapi.json answered ${response.status}`);
    return await response.text();
  } finally {
    await built.close({ flush: false });
    await database.close();
    await rm(archiveDir, { recursive: true, force: true });
  }
}
