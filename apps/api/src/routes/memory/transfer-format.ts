import { AppError } from '../../errors';
import type { NdjsonLine } from '../../http/ndjson';
import { validJson } from '../../http/validation';
import { BODY_LIMITS } from '../../limits';
import type { ImportLine } from '../../services/memory-transfer';
import { CreateMemoryBody } from './schemas';

/** The media type of an export, and what an import accepts (`application/jsonl` too). */
export const NDJSON_TYPE = 'application/x-ndjson';
export const NDJSON_TYPES = [NDJSON_TYPE, 'application/jsonl'];

/**
 * mem0's memory objects (`GET /v1/memories/`: `{ id, memory, categories, metadata, … }`)
 * carry the text in `memory`; supermemory's documents, and our own export lines, in
 * `content` (what else they carry is not part of a save and is dropped). Detected per line.
 */
function asSaveBody(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const line = value as Record<string, unknown>;
  if (!('content' in line) && typeof line.memory === 'string') {
    return { content: line.memory, ...(Array.isArray(line.categories) ? { tags: line.categories } : {}) };
  }
  return value;
}

/** An NDJSON line as a save, validated by the save's own schema and limits, or the problem that refuses it. */
export function importLineOf(line: NdjsonLine): ImportLine {
  if ('problem' in line) {
    const error =
      line.problem === 'too_large'
        ? new AppError('payload_too_large', `Line ${line.number} is ${line.bytes} bytes; a line is a save, at most ${BODY_LIMITS.requestBytes} bytes`)
        : new AppError('validation_failed', `Line ${line.number} is not valid UTF-8`);
    return { number: line.number, error };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(line.text);
  } catch {
    // Not the parser's message: it quotes the line, and the line may hold a secret.
    return { number: line.number, error: new AppError('validation_failed', `Line ${line.number} is not JSON`) };
  }
  try {
    return { number: line.number, input: validJson(CreateMemoryBody, asSaveBody(parsed)) };
  } catch (failure) {
    if (failure instanceof AppError) return { number: line.number, error: failure };
    throw failure;
  }
}
