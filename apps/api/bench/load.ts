import type { EventEmitter } from 'node:events';
import autocannon from 'autocannon';
import * as hdr from 'hdr-histogram-js';

/** One measured workload. Latencies in milliseconds. */
export interface Measurement {
  name: string;
  concurrency: number;
  seconds: number;
  requests: number;
  /** Completed operations per second. */
  throughput: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  /** Failed operations: network errors, timeouts and unexpected statuses. Must be 0. */
  errors: number;
}

function histogram() {
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: 3 });
}

function summary(name: string, concurrency: number, seconds: number, h: ReturnType<typeof histogram>, errors: number): Measurement {
  const ms = (percentile: number) => Math.round(h.getValueAtPercentile(percentile)) / 1000;
  return {
    name,
    concurrency,
    seconds: Math.round(seconds * 100) / 100,
    requests: h.totalCount,
    throughput: Math.round((h.totalCount / seconds) * 10) / 10,
    p50: ms(50),
    p95: ms(95),
    p99: ms(99),
    mean: Math.round(h.mean) / 1000,
    errors,
  };
}

export interface HttpLoad {
  name: string;
  url: string;
  concurrency: number;
  seconds: number;
  requests: autocannon.Request[];
  /** Send exactly this many requests (waiting for all) instead of running for `seconds`. */
  amount?: number;
  /** Statuses that count as success (default: any 2xx). */
  ok?: (status: number) => boolean;
}

/**
 * An HTTP load with autocannon (closed loop: `concurrency` connections, each sending its
 * next request when the previous one is answered), latencies recorded per response.
 */
export async function httpLoad(load: HttpLoad): Promise<Measurement> {
  const h = histogram();
  let failed = 0;
  const ok = load.ok ?? ((status: number) => status >= 200 && status < 300);
  const started = performance.now();
  // Without a callback autocannon returns its (event-emitting) tracker, made thenable.
  const instance = autocannon({
    url: load.url,
    connections: load.concurrency,
    pipelining: 1,
    ...(load.amount ? { amount: load.amount } : { duration: load.seconds }),
    requests: load.requests,
    timeout: 30,
  }) as unknown as EventEmitter & PromiseLike<autocannon.Result>;
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (ok(statusCode)) h.recordValue(Math.max(1, Math.round(responseTime * 1000)));
    else failed += 1;
  });
  const result = await instance;
  const seconds = (performance.now() - started) / 1000;
  return summary(load.name, load.concurrency, seconds, h, failed + result.errors + result.timeouts);
}

/** The same closed loop without HTTP: `concurrency` workers running `operation` back to back. */
export async function closedLoop(load: { name: string; concurrency: number; seconds: number; operation: (i: number) => Promise<void> }): Promise<Measurement> {
  const h = histogram();
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + load.seconds * 1000;
  await Promise.all(
    Array.from({ length: load.concurrency }, async () => {
      while (performance.now() < deadline) {
        const begin = performance.now();
        try {
          await load.operation(next++);
          h.recordValue(Math.max(1, Math.round((performance.now() - begin) * 1000)));
        } catch {
          errors += 1;
        }
      }
    }),
  );
  return summary(load.name, load.concurrency, (performance.now() - started) / 1000, h, errors);
}

/** Sequential requests (concurrency 1), for latency without queueing. */
export async function sequential(name: string, count: number, operation: (i: number) => Promise<boolean>): Promise<Measurement> {
  const h = histogram();
  let errors = 0;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const begin = performance.now();
    if (await operation(i).catch(() => false)) h.recordValue(Math.max(1, Math.round((performance.now() - begin) * 1000)));
    else errors += 1;
  }
  return summary(name, 1, (performance.now() - started) / 1000, h, errors);
}
