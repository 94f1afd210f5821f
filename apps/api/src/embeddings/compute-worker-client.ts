import { Worker } from 'node:worker_threads';

/** A scan of one owner's matrix: the query and the matrix's shared memory (compute-worker.mjs). */
export interface NearestRequest {
  query: Int8Array;
  rows: SharedArrayBuffer;
  norms: SharedArrayBuffer;
  count: number;
  dims: number;
  k: number;
}

export interface NearestRows {
  rows: Int32Array;
  similarities: Float32Array;
}

/** The worker thread that runs the local model and the cosine scans (compute-worker.mjs). */
export interface ComputeWorker {
  /** Loads the local model now (start-up), so the first search does not wait for it. */
  warm(): Promise<void>;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  nearest(request: NearestRequest): Promise<NearestRows>;
  /** Terminates the thread; what is in flight is rejected. The next call starts a new one. */
  close(): Promise<void>;
}

type Reply = { id: number; ok: true; flat?: Float32Array; dims?: number; rows?: Int32Array; similarities?: Float32Array } | { id: number; ok: false; message: string };

/** Beside this module: src/embeddings/ in a checkout, the bundle's folder in a build (build.mjs). */
const WORKER_FILE = new URL('./compute-worker.mjs', import.meta.url);

/**
 * The thread is started on first use and ends with close(); it is unref'd, so it never keeps
 * a process alive by itself. If it dies, what was in flight fails and the next call starts
 * another.
 */
export function createComputeWorker(): ComputeWorker {
  let worker: Worker | undefined;
  let nextId = 1;
  const waiting = new Map<number, { resolve(reply: Reply & { ok: true }): void; reject(error: Error): void }>();

  const failAll = (error: Error) => {
    for (const pending of waiting.values()) pending.reject(error);
    waiting.clear();
  };

  function thread(): Worker {
    if (worker) return worker;
    const started = new Worker(WORKER_FILE);
    started.unref();
    started.on('message', (reply: Reply) => {
      const pending = waiting.get(reply.id);
      if (!pending) return;
      waiting.delete(reply.id);
      if (reply.ok) pending.resolve(reply);
      else pending.reject(new Error(reply.message));
    });
    started.on('error', (error) => {
      if (worker === started) worker = undefined;
      failAll(error);
    });
    started.on('exit', (code) => {
      if (worker === started) worker = undefined;
      failAll(new Error(`the embedding worker exited (${code})`));
    });
    worker = started;
    return started;
  }

  function call(message: Record<string, unknown>): Promise<Reply & { ok: true }> {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      thread().postMessage({ ...message, id });
    });
  }

  return {
    async warm() {
      await call({ op: 'warm' });
    },
    async embed(texts) {
      if (texts.length === 0) return [];
      const reply = await call({ op: 'embed', texts: [...texts] });
      const flat = reply.flat!;
      const dims = reply.dims!;
      return texts.map((_, i) => flat.subarray(i * dims, (i + 1) * dims));
    },
    async nearest(request) {
      const reply = await call({ op: 'nearest', ...request });
      return { rows: reply.rows!, similarities: reply.similarities! };
    },
    async close() {
      const current = worker;
      worker = undefined;
      failAll(new Error('the embedding worker was closed'));
      await current?.terminate();
    },
  };
}
