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

/**
 * Where a workload's latencies (µs), failures and running time accumulate. Passing the
 * same recorder to several short loads merges them: workloads compared with each other
 * are run in alternating rounds, so drift on a shared machine touches both alike.
 */
export interface Recorder {
  histogram: ReturnType<typeof histogram>;
  errors: number;
  seconds: number;
}

/** Rounds of alternation for workloads compared side by side. */
export const ROUNDS = 3;

export const recorder = (): Recorder => ({ histogram: histogram(), errors: 0, seconds: 0 });

/** Runs `rounds` rounds of every load in turn (each given its round number). */
export async function alternate(rounds: number, loads: ((round: number) => Promise<unknown>)[]): Promise<void> {
  for (let round = 0; round < rounds; round++) for (const load of loads) await load(round);
}

function summary(name: string, concurrency: number, { histogram: h, errors, seconds }: Recorder): Measurement {
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
  /** Accumulate into this recorder (see alternate); the result covers all it holds. */
  into?: Recorder;
}

/**
 * An HTTP load with autocannon (closed loop: `concurrency` connections, each sending its
 * next request when the previous one is answered), latencies recorded per response.
 */
export async function httpLoad(load: HttpLoad): Promise<Measurement> {
  const record = load.into ?? recorder();
  const h = record.histogram;
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
  // autocannon settles on its next one-second tick after the last answer: time the load to
  // that answer, or a fixed number of requests would seem up to a second slower.
  let lastAnswer = started;
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    lastAnswer = performance.now();
    if (ok(statusCode)) h.recordValue(Math.max(1, Math.round(responseTime * 1000)));
    else failed += 1;
  });
  const result = await instance;
  record.seconds += (lastAnswer - started) / 1000;
  record.errors += failed + result.errors + result.timeouts;
  return summary(load.name, load.concurrency, record);
}

/** The same closed loop without HTTP: `concurrency` workers running `operation` back to back. */
export async function closedLoop(load: {
  name: string;
  concurrency: number;
  seconds: number;
  operation: (i: number) => Promise<void>;
  into?: Recorder;
}): Promise<Measurement> {
  const record = load.into ?? recorder();
  const h = record.histogram;
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
          record.errors += 1;
        }
      }
    }),
  );
  record.seconds += (performance.now() - started) / 1000;
  return summary(load.name, load.concurrency, record);
}

/** Sequential requests (concurrency 1), for latency without queueing. */
export async function sequential(name: string, count: number, operation: (i: number) => Promise<boolean>, into?: Recorder): Promise<Measurement> {
  const record = into ?? recorder();
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const begin = performance.now();
    if (await operation(i).catch(() => false)) record.histogram.recordValue(Math.max(1, Math.round((performance.now() - begin) * 1000)));
    else record.errors += 1;
  }
  record.seconds += (performance.now() - started) / 1000;
  return summary(name, 1, record);
}

/**
 * An open loop at a steady rate: operation i starts i ÷ rate seconds after the first,
 * whether or not earlier ones have answered (clients arriving on their own). Its
 * concurrency is the most that were in flight at once.
 */
export async function paced(name: string, rate: number, seconds: number, operation: (i: number) => Promise<boolean>, into?: Recorder): Promise<Measurement> {
  const record = into ?? recorder();
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  let open = 0;
  let most = 0;
  for (let i = 0; i < Math.round(rate * seconds); i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const begin = performance.now();
    most = Math.max(most, ++open);
    inFlight.push(
      operation(i)
        .catch(() => false)
        .then((ok) => {
          open -= 1;
          if (ok) record.histogram.recordValue(Math.max(1, Math.round((performance.now() - begin) * 1000)));
          else record.errors += 1;
        }),
    );
  }
  await Promise.all(inFlight);
  record.seconds += (performance.now() - started) / 1000;
  return summary(name, most, record);
}

/** Rounds recorded apart (each for its own figure) reported as one workload. */
export function combined(name: string, concurrency: number, rounds: readonly Recorder[]): Measurement {
  const all = recorder();
  for (const round of rounds) {
    all.histogram.add(round.histogram);
    all.errors += round.errors;
    all.seconds += round.seconds;
  }
  return summary(name, concurrency, all);
}
