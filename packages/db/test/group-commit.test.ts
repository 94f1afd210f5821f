import { describe, expect, it } from 'vitest';
import { createGroupCommit } from '../src/group-commit';

/** A run function whose runs finish when the test says so, recording what each run held. */
function controlledRuns(fail: (item: string) => boolean = () => false) {
  const runs: string[][] = [];
  const finishers: (() => void)[] = [];
  const run = (items: string[]) => {
    runs.push(items);
    return new Promise<string[]>((resolve, reject) => {
      finishers.push(() => (items.some(fail) ? reject(new Error(`bad item in ${items.join(',')}`)) : resolve(items.map((item) => `done:${item}`))));
    });
  };
  /** Finishes every run started so far, and lets the next ones start. */
  const finishAll = async () => {
    while (finishers.length > 0) finishers.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { runs, run, finishAll };
}

describe('group commit', () => {
  it('runs an item at once, alone, when nothing of its key is running', async () => {
    const { runs, run, finishAll } = controlledRuns();
    const commit = createGroupCommit({ run, maxItems: 10, weight: () => 1, maxWeight: 100 });
    const result = commit.submit('owner', 'a');
    expect(runs).toEqual([['a']]);
    await finishAll();
    await expect(result).resolves.toBe('done:a');
  });

  it('merges items that arrive while a run of their key is in progress; other keys run in parallel', async () => {
    const { runs, run, finishAll } = controlledRuns();
    const commit = createGroupCommit({ run, maxItems: 10, weight: () => 1, maxWeight: 100 });
    const results = [commit.submit('one', 'a'), commit.submit('one', 'b'), commit.submit('two', 'x'), commit.submit('one', 'c')];
    expect(runs).toEqual([['a'], ['x']]);
    await finishAll();
    expect(runs).toEqual([['a'], ['x'], ['b', 'c']]);
    await finishAll();
    expect(await Promise.all(results)).toEqual(['done:a', 'done:b', 'done:x', 'done:c']);
    // The key is idle again: the next item runs at once.
    void commit.submit('one', 'd');
    expect(runs.at(-1)).toEqual(['d']);
  });

  it('bounds a run by item count and by weight', async () => {
    const { runs, run, finishAll } = controlledRuns();
    const commit = createGroupCommit({ run, maxItems: 3, weight: (item: string) => item.length, maxWeight: 6 });
    const results = ['first', 'a', 'b', 'c', 'd', 'eeeee', 'ff', 'ggggggggg'].map((item) => commit.submit('owner', item));
    for (let i = 0; i < 6; i++) await finishAll();
    // One item heavier than the bound still runs, alone.
    expect(runs).toEqual([['first'], ['a', 'b', 'c'], ['d', 'eeeee'], ['ff'], ['ggggggggg']]);
    expect(await Promise.all(results)).toHaveLength(8);
  });

  it('runs the items of a failed merged run again each on its own, so a bad item fails only its caller', async () => {
    const { runs, run, finishAll } = controlledRuns((item) => item === 'bad');
    const commit = createGroupCommit({ run, maxItems: 10, weight: () => 1, maxWeight: 100 });
    const results = ['a', 'b', 'bad', 'c'].map((item) => commit.submit('owner', item));
    const settled = Promise.allSettled(results);
    await finishAll(); // 'a' alone
    await finishAll(); // the merged run fails
    // All three retries have started before any of them finished.
    expect(runs).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
    for (let i = 0; i < 3; i++) await finishAll();
    expect(runs).toHaveLength(5);
    expect((await settled).map((r) => (r.status === 'fulfilled' ? r.value : 'rejected'))).toEqual(['done:a', 'done:b', 'rejected', 'done:c']);
  });
});
