import type { components } from './generated/schema.js';
import type { Send } from './transport.js';

export type Memory = components['schemas']['Memory'];
export type ImportSummary = components['schemas']['MemoryImportSummary'];
/** What `importMemories` takes: NDJSON text (a string, a Blob or File, a byte stream), or records to send one per line. */
export type ImportSource = string | Blob | ReadableStream<Uint8Array> | Iterable<object> | AsyncIterable<object>;

const NDJSON = 'application/x-ndjson';

/** The lines of a byte stream, decoded as UTF-8, as they arrive. */
async function* linesOf(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let rest = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const lines = (rest + decoder.decode(value, { stream: true })).split('\n');
      rest = lines.pop()!;
      for (const line of lines) if (line.trim() !== '') yield line;
    }
    rest += decoder.decode();
    if (rest.trim() !== '') yield rest;
  } finally {
    reader.releaseLock();
  }
}

/** Records as an NDJSON byte stream, one line each, pulled as the upload asks for them. */
function ndjsonStream(records: Iterable<object> | AsyncIterable<object>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = Symbol.asyncIterator in records ? records[Symbol.asyncIterator]() : records[Symbol.iterator]();
  return new ReadableStream({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

export function createTransfer(send: Send, baseUrl: string) {
  return {
    /** Every memory the caller can read (`scope`: user, org or all), streamed: one record per line of GET /v1/memory/export. */
    async *exportMemories(options: { scope?: 'user' | 'org' | 'all'; signal?: AbortSignal } = {}): AsyncGenerator<Memory> {
      const url = `${baseUrl}/v1/memory/export${options.scope ? `?scope=${options.scope}` : ''}`;
      const response = await send(new Request(url, { headers: { accept: NDJSON }, ...(options.signal ? { signal: options.signal } : {}) }));
      if (!response.body) return;
      for await (const line of linesOf(response.body)) yield JSON.parse(line) as Memory;
    },

    /**
     * Sends NDJSON to POST /v1/memory/import and answers its summary. Text and Blobs are
     * retried like any call (an import is idempotent per line); a stream is sent once.
     */
    async importMemories(source: ImportSource, options: { scope?: 'user' | 'org'; signal?: AbortSignal } = {}): Promise<ImportSummary> {
      const url = `${baseUrl}/v1/memory/import${options.scope ? `?scope=${options.scope}` : ''}`;
      const replayable = typeof source === 'string' || source instanceof Blob;
      const body = replayable || source instanceof ReadableStream ? source : ndjsonStream(source);
      const request = new Request(url, {
        method: 'POST',
        headers: { 'content-type': NDJSON },
        body,
        ...(options.signal ? { signal: options.signal } : {}),
        // A streamed request body (Node and Chromium need this said).
        ...(replayable ? {} : { duplex: 'half' }),
      } as RequestInit);
      const response = await send(request, { retry: replayable });
      return (await response.json()) as ImportSummary;
    },
  };
}
