import { AppError } from '../../errors';
import type { NdjsonLine } from '../../http/ndjson';
import { validJson } from '../../http/validation';
import { BODY_LIMITS } from '../../limits';
import type { ImportLine } from '../../services/memory-transfer';
import { CreateMemoryBody, expiryOf } from './schemas';

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
  // Our export's lines: a memory never expiring says `expires_at: null`; its versions are
  // linked by `id` and `superseded_by` (chainOf), never by `supersedes`, whose ids are another org's.
  const { supersedes: _supersedes, ...save } = line;
  return save.expires_at === null ? { ...save, expires_at: undefined } : save;
}

const EXPORTED_ID = /^mem_[0-9A-HJKMNP-TV-Z]{26}$/;

/** Where an exported memory stood in its chain of versions: its id in the export, and the id of the memory that replaced it. */
function chainOf(value: unknown): { id: string; supersededBy: string | null } | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { id, superseded_by: supersededBy } = value as Record<string, unknown>;
  if (typeof id !== 'string' || !EXPORTED_ID.test(id)) return undefined;
  return { id, supersededBy: typeof supersededBy === 'string' && EXPORTED_ID.test(supersededBy) ? supersededBy : null };
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
    const { expires_at, ttl_seconds, supersedes: _supersedes, ...body } = validJson(CreateMemoryBody, asSaveBody(parsed));
    const expiry = expiryOf({ expires_at, ttl_seconds });
    const chain = chainOf(parsed);
    return { number: line.number, input: { ...body, ...(expiry && { expiry }) }, ...(chain && { chain }) };
  } catch (failure) {
    if (failure instanceof AppError) return { number: line.number, error: failure };
    throw failure;
  }
}
