import { describe, expect, it } from 'vitest';
import { progressReporter } from '../src/cli/progress';

describe('progress of a long CLI job', () => {
  it('prints counts, total and rate at most once per interval, and once at the end', () => {
    let now = 0;
    const lines: string[] = [];
    const progress = progressReporter('ledger rebuild', { unit: 'segments', write: (line) => lines.push(line), now: () => now });
    for (let done = 1; done <= 1508; done++) {
      now = done * 5; // 200 segments a second
      progress.update({ done, total: 1508, also: { events: done * 24 } });
    }
    progress.finish();
    // 7.54 s of work: a line at each elapsed second, then the final one.
    expect(lines).toHaveLength(8);
    expect(lines[0]).toBe('ledger rebuild: 200/1,508 segments (13%), 4,800 events, 200 segments/s, 1.0 s');
    expect(lines.at(-1)).toBe('ledger rebuild: 1,508/1,508 segments (100%), 36,192 events, 200 segments/s, 7.5 s');
  });

  it('prints one line for a job shorter than the interval', () => {
    let now = 0;
    const lines: string[] = [];
    const progress = progressReporter('import', { unit: 'memories', write: (line) => lines.push(line), now: () => now });
    progress.update({ done: 3 });
    now = 500;
    progress.finish();
    expect(lines).toEqual(['import: 3 memories, 6 memories/s, 0.5 s']);
  });
});
