/**
 * Group commit: callers that would each run a small transaction of the same kind hand
 * their item to `submit` and wait for its result. While no transaction of a key (an
 * owner) is running, an item runs at once, on its own — an idle service adds no latency.
 * Items that arrive while one runs queue up and go together in the next, up to
 * `maxItems` / `maxWeight` per transaction. Each caller still answers only after the
 * transaction that holds its item committed, so nothing is acknowledged before it is
 * durable; what is saved is the round trips, commits and fsyncs of the transactions
 * that were merged.
 *
 * When a merged run fails, its items run again each on its own (concurrently), so one
 * bad item fails only its own caller.
 */
export interface GroupCommitOptions<T, R> {
  /** Runs items of one key in one transaction; results in the items' order. */
  run(items: T[]): Promise<R[]>;
  maxItems: number;
  /** The weight of one item (bytes); a run holds at most `maxWeight`, or one item. */
  weight(item: T): number;
  maxWeight: number;
}

interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export function createGroupCommit<T, R>(options: GroupCommitOptions<T, R>) {
  /** Keys with a run in progress, and the items waiting for the next one. */
  const queues = new Map<string, Waiting<T, R>[]>();

  async function runAlone(waiting: Waiting<T, R>) {
    try {
      const [result] = await options.run([waiting.item]);
      waiting.resolve(result!);
    } catch (error) {
      waiting.reject(error);
    }
  }

  async function drain(key: string, queue: Waiting<T, R>[]) {
    while (queue.length > 0) {
      let weight = 0;
      let count = 0;
      while (count < queue.length && count < options.maxItems) {
        const next = options.weight(queue[count]!.item);
        if (count > 0 && weight + next > options.maxWeight) break;
        weight += next;
        count++;
      }
      const group = queue.splice(0, count);
      if (group.length === 1) {
        await runAlone(group[0]!);
        continue;
      }
      try {
        const results = await options.run(group.map((waiting) => waiting.item));
        group.forEach((waiting, i) => waiting.resolve(results[i]!));
      } catch {
        // At once, not one after another: when the database is down each would wait out
        // its own connect timeout.
        await Promise.all(group.map(runAlone));
      }
    }
    queues.delete(key);
  }

  return {
    submit(key: string, item: T): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        const waiting = { item, resolve, reject };
        const queue = queues.get(key);
        if (queue) {
          queue.push(waiting);
          return;
        }
        const fresh = [waiting];
        queues.set(key, fresh);
        void drain(key, fresh);
      });
    },
  };
}
