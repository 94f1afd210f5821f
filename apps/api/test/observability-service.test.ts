import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropDatabase } from '@memory-bank/db/system';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freshDatabaseUrl } from './support/database';
import { startService, stopService } from './support/process';

/*
 * `pnpm start` with metrics on their own port and traces to an OTLP/HTTP receiver: the
 * wiring in main.ts, the real exporter, the real listener (docs/observability.md).
 */

const databaseUrl = freshDatabaseUrl(inject('databaseServerUrl'), 'obs');
const received: string[] = [];
const receivedTokens: (string | undefined)[] = [];
let collector: Server;

afterAll(async () => {
  collector?.close();
  await dropDatabase(databaseUrl);
});

async function startCollector(): Promise<string> {
  collector = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') {
        received.push(body);
        receivedTokens.push(request.headers['x-collector-token'] as string | undefined);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('pnpm start with METRICS_PORT, OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_HEADERS', () => {
  it('serves /metrics on its own port and exports request spans over OTLP/HTTP', { timeout: 120_000 }, async () => {
    const endpoint = await startCollector();
    const archive = await mkdtemp(join(tmpdir(), 'mb-obs-archive-'));
    const service = await startService({
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_SERVICE_NAME: 'memory-bank-obs-test',
      // Read by the OTLP exporter itself: a collector's credentials.
      OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-token=obs-token-42',
      ARCHIVE_URL: `file://${archive}`,
      LOG_LEVEL: 'info',
    });
    try {
      const metricsPort = await until('the metrics port in the log', () => /"port":(\d+)[^\n]*"msg":"metrics listening"/.exec(service.output())?.[1]);
      const traceId = randomBytes(16).toString('hex');
      const ready = await fetch(`${service.url}/readyz`, { headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` } });
      expect(ready.status).toBe(200);
      expect(ready.headers.get('traceparent')).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
      expect((await fetch(`${service.url}/metrics`)).status).toBe(404);

      const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(scraped.status).toBe(200);
      const text = await scraped.text();
      expect(text).toMatch(/memory_bank_http_request_duration_seconds_count\{method="GET",route="\/readyz",status_class="2xx"\} 1/);
      expect(text).toMatch(/^process_cpu_seconds_total /m);

      // The batch exporter sends within its schedule (5 s by default).
      const batch = await until('the span to reach the receiver', () => received.find((body) => body.includes(traceId)));
      expect(batch).toContain('memory-bank-obs-test');
      expect(batch).toContain('GET /readyz');
      expect(receivedTokens[received.indexOf(batch)]).toBe('obs-token-42');
    } finally {
      await stopService(service.child);
      await rm(archive, { recursive: true, force: true });
    }
  });
});
