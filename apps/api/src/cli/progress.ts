/** Counts a long job has reached; `total` of the first count when known. */
export interface ProgressCounts {
  done: number;
  total?: number;
  /** Further counts, reported after the main one (e.g. events next to segments). */
  also?: Record<string, number>;
}

export interface ProgressReporter {
  /** Records where the job is; prints at most once per interval. */
  update(counts: ProgressCounts): void;
  /** Prints the last counts once more, with the overall rate. */
  finish(): void;
}

export interface ProgressOptions {
  /** What is counted, plural ("segments"). */
  unit: string;
  write: (line: string) => void;
  /** Milliseconds, monotonic (performance.now by default). */
  now?: () => number;
  intervalMs?: number;
}

const number = new Intl.NumberFormat('en-US');

/**
 * Progress of a long operator job, for people watching a terminal: "<job>: 500/1,508
 * segments (33%), 12,000 events, 160 segments/s, 3.1 s". Printed at most once a second
 * while it runs and once at the end, so a fast job prints one line.
 */
export function progressReporter(job: string, options: ProgressOptions): ProgressReporter {
  const now = options.now ?? (() => performance.now());
  const intervalMs = options.intervalMs ?? 1000;
  const started = now();
  let printedAt = started;
  let last: ProgressCounts = { done: 0 };
  const line = (at: number) => {
    const seconds = (at - started) / 1000;
    const total = last.total === undefined ? '' : `/${number.format(last.total)}`;
    const share = last.total ? ` (${Math.floor((100 * last.done) / last.total)}%)` : '';
    const also = Object.entries(last.also ?? {}).map(([name, value]) => `, ${number.format(value)} ${name}`).join('');
    const rate = seconds > 0 ? Math.round(last.done / seconds) : last.done;
    return `${job}: ${number.format(last.done)}${total} ${options.unit}${share}${also}, ${number.format(rate)} ${options.unit}/s, ${seconds.toFixed(1)} s`;
  };
  return {
    update(counts) {
      last = counts;
      const at = now();
      if (at - printedAt < intervalMs) return;
      printedAt = at;
      options.write(line(at));
    },
    finish() {
      options.write(line(now()));
    },
  };
}
