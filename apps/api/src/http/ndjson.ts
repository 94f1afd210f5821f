import { AppError } from '../errors';

/** One line of an NDJSON body: its text, or why it has none. Numbers count from 1, blank lines included. */
export type NdjsonLine =
  | { number: number; text: string }
  | { number: number; problem: 'too_large' | 'invalid_utf8'; bytes: number };

export interface NdjsonLimits {
  /** A longer line is reported (`too_large`) and skipped without being held in memory. */
  lineBytes: number;
  /** A longer body ends the read with 413. */
  bodyBytes: number;
}

const NEWLINE = 0x0a;

/**
 * The lines of a streamed NDJSON body, as they arrive: at most one line is held at a time,
 * so a body of any length costs one line's memory. Each line is decoded as strict UTF-8
 * on its own, so one bad line does not spoil the others. Blank lines are left out (their
 * numbers still count); a trailing `\r` and a leading byte-order mark are dropped.
 */
export async function* ndjsonLines(body: ReadableStream<Uint8Array>, limits: NdjsonLimits): AsyncGenerator<NdjsonLine> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let parts: Uint8Array[] = [];
  let lineBytes = 0;
  let total = 0;
  let number = 0;

  const finish = (): NdjsonLine | null => {
    number += 1;
    const size = lineBytes;
    const held = parts;
    parts = [];
    lineBytes = 0;
    if (size > limits.lineBytes) return { number, problem: 'too_large', bytes: size };
    const bytes = held.length === 1 ? held[0]! : Buffer.concat(held);
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      return { number, problem: 'invalid_utf8', bytes: size };
    }
    if (text.endsWith('\r')) text = text.slice(0, -1);
    return text.trim() === '' ? null : { number, text };
  };

  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limits.bodyBytes) {
        throw new AppError('payload_too_large', `The request body is larger than ${limits.bodyBytes} bytes (stopped in line ${number + 1})`, { bodyUnread: true });
      }
      let start = 0;
      for (let end = value.indexOf(NEWLINE); ; end = value.indexOf(NEWLINE, start)) {
        const piece = value.subarray(start, end === -1 ? value.byteLength : end);
        lineBytes += piece.byteLength;
        // Past the limit the line is only counted, never kept.
        if (lineBytes <= limits.lineBytes && piece.byteLength > 0) parts.push(piece);
        else if (lineBytes > limits.lineBytes) parts = [];
        if (end === -1) break;
        const line = finish();
        if (line) yield line;
        start = end + 1;
      }
    }
    if (lineBytes > 0) {
      const line = finish();
      if (line) yield line;
    }
  } finally {
    reader.releaseLock();
  }
}
