import { dropDatabase } from '@memory-bank/db/system';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freshDatabaseUrl } from './support/database';
import { request } from './support/http';
import { startService, stopService } from './support/process';

/*
 * `pnpm start` with the local model (the default provider): the bundle's worker thread loads
 * the model, saves are embedded in the background, searches use the semantic leg, and the
 * whole process stays within the memory target (350 MB resident) — read from its own
 * process_resident_memory_bytes.
 */
const METRICS_TOKEN = 'metrics-token-for-the-embeddings-service';
const OPERATOR_TOKEN = 'operator-token-for-the-embeddings-service';
const RSS_TARGET_BYTES = 350 * 1024 * 1024;
const databaseUrl = freshDatabaseUrl(inject('databaseServerUrl'), 'embeddings_service');
afterAll(() => dropDatabase(databaseUrl));

const TOPICS = ['the SSO login', 'the Postgres credentials', 'the blue-green deploys', 'vacation requests', 'the on-call rota', 'the invoice approvals', 'the harbour crane', 'the coffee machine'];

async function scrape(url: string): Promise<string> {
  return (await request(url, 'GET', '/metrics', { key: METRICS_TOKEN })).text;
}
const valueOf = (text: string, series: string) => Number(new RegExp(`^${series.replace(/[{}"]/g, '\\$&')} ([0-9.e+]+)$`, 'm').exec(text)?.[1] ?? NaN);

describe('pnpm start with EMBEDDINGS_PROVIDER=local', () => {
  it('embeds saves in its worker thread, searches by meaning, and stays under 350 MB resident', { timeout: 180_000 }, async () => {
    const service = await startService({ DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', EMBEDDINGS_PROVIDER: 'local', METRICS_TOKEN, MEMORY_BANK_OPERATOR_TOKEN: OPERATOR_TOKEN, LOG_LEVEL: 'info' });
    try {
      const provisioned = await request(service.url, 'POST', '/v1/admin/orgs', { key: OPERATOR_TOKEN, body: { name: 'embedded', owner: { email: 'embedded@example.test' } } });
      const key = provisioned.body.api_key.key as string;
      const saves = 200;
      for (let i = 0; i < saves; i++) {
        const topic = TOPICS[i % TOPICS.length]!;
        expect((await request(service.url, 'POST', '/v1/memory', { key, body: { content: `Note ${i} on ${topic}: the team agreed on step ${i % 7} of the plan for ${topic}` } })).status).toBe(201);
      }
      await expect.poll(async () => valueOf(await scrape(service.url), 'memory_bank_embeddings_stored_total{outcome="embedded"}'), { timeout: 60_000, interval: 100 }).toBe(saves);
      for (const query of ["can't sign in", 'holiday requests', 'who approves bills', 'database password rotation']) {
        const found = await request(service.url, 'GET', `/v1/memory/search?q=${encodeURIComponent(query)}`, { key });
        expect(found.status).toBe(200);
      }
      const metrics = await scrape(service.url);
      expect(metrics).toContain('memory_bank_embeddings_info{provider="local",model="local:use-lite-512"} 1');
      const rss = valueOf(metrics, 'process_resident_memory_bytes');
      console.log(`resident with the local model after ${saves} saves embedded: ${Math.round(rss / 1024 / 1024)} MB`);
      expect(rss).toBeLessThanOrEqual(RSS_TARGET_BYTES);
      expect(service.output()).toContain('"msg":"embedding model loaded"');
    } finally {
      expect(await stopService(service.child)).toEqual({ code: 0, signal: null });
    }
  });
});
