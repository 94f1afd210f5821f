import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { Readable, type Writable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { MemoryScope, ScopeFilter } from '@memory-bank/db';
import type { Principal } from '../auth/principal';
import { ndjsonLines } from '../http/ndjson';
import { BODY_LIMITS } from '../limits';
import { toMemoryResponse } from '../routes/memory/schemas';
import { importLineOf } from '../routes/memory/transfer-format';
import type { ImportSummary, MemoryTransferService } from '../services/memory-transfer';
import { progressReporter } from './progress';

interface JobOptions {
  /** Where progress (and each refused line) goes: stderr. */
  write: (line: string) => void;
}

/**
 * Imports an NDJSON file as `POST /v1/memory/import` does (same lines, same service), read
 * line by line, so a file of any size costs one line's memory. Unlike the route it has no
 * size or time limit: it stops at the end of the file, or after the line in hand once
 * `signal` aborts (Ctrl-C), with `complete: false`.
 */
export async function importFile(
  transfer: MemoryTransferService,
  principal: Principal,
  file: string,
  options: JobOptions & { scope?: MemoryScope; signal: AbortSignal },
): Promise<ImportSummary> {
  const progress = progressReporter('memory import', { unit: 'lines', write: options.write });
  const body = Readable.toWeb(createReadStream(file)) as NodeReadableStream<Uint8Array> as ReadableStream<Uint8Array>;
  async function* lines() {
    for await (const line of ndjsonLines(body, { lineBytes: BODY_LIMITS.requestBytes, bodyBytes: Number.POSITIVE_INFINITY })) yield importLineOf(line);
  }
  let reported = 0;
  const summary = await transfer.import(principal, lines(), {
    ...(options.scope ? { scope: options.scope } : {}),
    signal: options.signal,
    onProgress: (sofar) => {
      // Each refusal as it happens (the summary lists only the first ones); never the line's text.
      for (const failure of sofar.failures.slice(reported)) options.write(`line ${failure.line}: ${failure.code}: ${failure.detail}`);
      reported = sofar.failures.length;
      progress.update({ done: sofar.lastLine, also: { imported: sofar.imported, skipped: sofar.skipped, failed: sofar.failed } });
    },
  });
  progress.finish();
  return summary;
}

/** Writes what `principal` can read (`filter`) to `out` as export lines, exactly as `GET /v1/memory/export` does; returns the count. */
export async function exportTo(transfer: MemoryTransferService, principal: Principal, filter: ScopeFilter, out: Writable, options: JobOptions): Promise<number> {
  const progress = progressReporter('memory export', { unit: 'memories', write: options.write });
  let count = 0;
  for await (const page of transfer.exportPages(principal, filter)) {
    if (!out.write(page.map((memory) => `${JSON.stringify(toMemoryResponse(memory))}\n`).join(''))) await once(out, 'drain');
    count += page.length;
    progress.update({ done: count });
  }
  progress.finish();
  return count;
}
