import { z } from '@hono/zod-openapi';
import { CONTEXT_ORIGINS, MEMORY_SCOPES, MEMORY_SOURCES, SEMANTIC_SCORE_CAP, type MemoryRecord, type ScoredMemoryRecord } from '@memory-bank/db';
import { nestsWithin } from '../../http/json-input';
import { MEMORY_LIMITS } from '../../limits';

export { MEMORY_LIMITS };

const codePoints = (value: string) => Array.from(value).length;

/** A trimmed string of `min`–`max` characters (Unicode code points, not UTF-16 units). */
export const boundedText = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min, { message: `Must be at least ${min} character${min === 1 ? '' : 's'} after trimming` })
    .refine((value) => codePoints(value) <= max, { message: `Must be at most ${max} characters` })
    .openapi({ maxLength: max });

/** A `limit` query parameter: 1–`max`, default 20. */
export const limitParam = (max: number, description: string) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(max)
    .default(20)
    .openapi({ description: `${description}, 1–${max} (default 20).` });

/** The `scope` filter of list and search. */
export const ScopeFilterParam = z
  .enum(['user', 'org', 'all'])
  .default('all')
  .openapi({ description: '`user`: your private memories; `org`: your org\'s shared ones; `all` (default): both.' });

/** The `tag` filter of list and search. */
export const TagFilter = z
  .string()
  .trim()
  .min(1)
  .max(MEMORY_LIMITS.tagChars)
  .optional()
  .openapi({ description: 'Only memories carrying this tag.' });

/** The `source` filter of list and search. */
export const SourceFilter = z.enum(MEMORY_SOURCES).optional().openapi({ description: 'Only memories saved this way.' });

const Citation = z
  .record(z.string(), z.unknown())
  .superRefine((value, ctx) => {
    // Depth first: it bounds what JSON.stringify has to walk (and MySQL's JSON nests 32 deep at most).
    if (!nestsWithin(value, MEMORY_LIMITS.citationDepth)) {
      ctx.addIssue({ code: 'custom', message: `Must nest at most ${MEMORY_LIMITS.citationDepth} levels deep` });
    } else if (Buffer.byteLength(JSON.stringify(value)) > MEMORY_LIMITS.citationBytes) {
      ctx.addIssue({ code: 'custom', message: `Must be at most ${MEMORY_LIMITS.citationBytes} bytes of JSON` });
    }
  })
  .openapi({
    description: 'Where the snippet comes from, e.g. `{ "url": "…", "title": "…" }` (a JSON object, ≤ 16 KiB, ≤ 16 levels deep).',
  });

export const ContextInput = z
  .object({
    snippet: boundedText(1, MEMORY_LIMITS.snippetChars).openapi({ description: 'The passage the memory was drawn from (1–4000 characters).' }),
    citation: Citation.nullable().optional(),
    conversation_id: z.string().min(1).max(MEMORY_LIMITS.idChars).nullable().optional(),
    message_id: z.string().min(1).max(MEMORY_LIMITS.idChars).nullable().optional(),
    origin: z.enum(CONTEXT_ORIGINS).optional().openapi({ description: 'Default `active_conversation`.' }),
  })
  .openapi('MemoryContextInput');

export const Tags = z
  .array(boundedText(1, MEMORY_LIMITS.tagChars))
  .max(MEMORY_LIMITS.tags)
  .openapi({ description: `At most ${MEMORY_LIMITS.tags} tags of 1–${MEMORY_LIMITS.tagChars} characters; duplicates are dropped.` });

export const Content = boundedText(1, MEMORY_LIMITS.contentChars).openapi({
  description: `The memory text, 1–${MEMORY_LIMITS.contentChars} characters after trimming.`,
});

const MemoryId = z.string().regex(/^mem_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'Must be a memory id (mem_…)' });

const ExpiresAt = z.iso.datetime({ offset: true }).openapi({ description: 'An RFC 3339 time (future) from which it is gone, then deleted.' });
const TtlSeconds = z
  .number()
  .int()
  .min(1)
  .max(MEMORY_LIMITS.ttlSeconds)
  .openapi({ description: 'Expires in this many seconds (instead of expires_at).' });
const Pinned = z.boolean().openapi({ description: 'First at session start; kept by retention.' });

export const CreateMemoryBody = z
  .object({
    content: Content,
    scope: z
      .enum(MEMORY_SCOPES)
      .optional()
      .openapi({ description: '`user` (default): private to you. `org`: shared with your whole org — admins and owners only (403 otherwise).' }),
    tags: Tags.optional(),
    contexts: z.array(ContextInput).max(MEMORY_LIMITS.contexts).optional().openapi({ description: `At most ${MEMORY_LIMITS.contexts} citation contexts.` }),
    supersedes: z
      .array(MemoryId)
      .min(1)
      .max(MEMORY_LIMITS.supersedes)
      .optional()
      .openapi({ description: 'Your memories this one replaces: they leave list, search and recall.' }),
    expires_at: ExpiresAt.optional(),
    ttl_seconds: TtlSeconds.optional(),
    pinned: Pinned.optional(),
  })
  .openapi('CreateMemory');

export const UpdateMemoryBody = z
  .object({
    content: Content.optional(),
    tags: Tags.optional(),
    expires_at: ExpiresAt.nullable().optional().openapi({ description: 'A new expiry (RFC 3339, future); null removes it.' }),
    ttl_seconds: TtlSeconds.optional(),
    pinned: Pinned.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'Send at least one of content, tags, expires_at, ttl_seconds, pinned',
    path: ['content'],
  })
  .openapi('UpdateMemory');

/** The expiry fields of a save or change, as the memory service takes them. */
export function expiryOf(body: { expires_at?: string | null; ttl_seconds?: number }) {
  if (body.expires_at === undefined && body.ttl_seconds === undefined) return undefined;
  return { ...(body.expires_at !== undefined && { expiresAt: body.expires_at }), ...(body.ttl_seconds !== undefined && { ttlSeconds: body.ttl_seconds }) };
}

export const MemoryContextSchema = z
  .object({
    id: z.string().openapi({ example: 'mctx_01JD3W6Q8Z9K2M4N5P6R7S8T9V' }),
    snippet: z.string(),
    citation: z.record(z.string(), z.unknown()).nullable(),
    conversation_id: z.string().nullable(),
    message_id: z.string().nullable(),
    origin: z.enum(CONTEXT_ORIGINS),
    created_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('MemoryContext');

const memoryFields = {
  id: z.string().openapi({ example: 'mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V' }),
  scope: z.enum(MEMORY_SCOPES).openapi({ description: '`user`: private to its owner; `org`: shared with the org.' }),
  source: z.enum(MEMORY_SOURCES).openapi({ description: 'How it was saved: `api` (REST), `mcp` (an agent over MCP), `hook`.' }),
  content: z.string(),
  tags: z.array(z.string()),
  contexts: z.array(MemoryContextSchema),
  superseded_by: z.string().nullable().openapi({ description: 'The memory that replaced this one; null while current.' }),
  expires_at: z.string().nullable().openapi({ format: 'date-time' }),
  pinned: z.boolean(),
  use_count: z.number().int().openapi({ description: 'How often an agent was given it (recall, MCP reads).' }),
  last_used_at: z.string().nullable().openapi({ format: 'date-time' }),
  created_at: z.string().openapi({ format: 'date-time' }),
  updated_at: z.string().openapi({ format: 'date-time' }),
};

export const MemorySchema = z.object(memoryFields).openapi('Memory');

/** What a save or an update answers: the memory, and how many secrets were kept out of it. */
export const SavedMemorySchema = z
  .object({
    ...memoryFields,
    redacted: z.number().int().min(0).openapi({
      description:
        "How many secrets in `content` and the contexts (snippets, citations) this request replaced with `[REDACTED:<kind>]` before storing. 0 when the org turned redaction off (`redact_memory_secrets`).",
    }),
  })
  .openapi('SavedMemory');

/** What a save answers: the saved memory, whether it was a duplicate, and similar ones. */
export const CreatedMemorySchema = z
  .object({
    ...SavedMemorySchema.shape,
    duplicate: z.boolean().openapi({ description: 'true (status 200): equal to a live memory of yours, which got this save\'s contexts and tags; nothing new stored.' }),
    similar: z
      .array(z.object({ id: z.string(), score: z.number().min(0).max(1), content: z.string() }))
      .openapi({ description: `Up to ${MEMORY_LIMITS.similarCount} other live memories much like this one (score ≥ ${MEMORY_LIMITS.similarScore}): if one says the same or an older version, PATCH it or supersede it instead of keeping both.` }),
  })
  .openapi('CreatedMemory');

const SearchHighlight = z
  .object({
    start: z.number().int().openapi({ description: 'Offset in `content` where the match starts, in UTF-16 code units (JavaScript string indices).' }),
    end: z.number().int().openapi({ description: 'Offset just past the match (exclusive).' }),
    kind: z.enum(['exact', 'stem', 'correction', 'part', 'prefix']).openapi({
      description:
        '`exact`: the word itself; `stem`: another form of it (rotate ~ rotating); `correction`: the word a misspelt query word was corrected to (see `match.corrections`); `part`: part of an identifier (Invoice in createInvoice); `prefix`: a word it begins.',
    }),
  })
  .openapi('SearchHighlight');

const SearchMatch = z
  .object({
    terms: z.array(z.string()).openapi({ description: 'The query words this memory matched, lower-cased and normalised.' }),
    phrases: z.array(z.string()).openapi({ description: 'Quoted phrases (and words written together, such as `v1.32.2`) found as written.' }),
    corrections: z
      .array(z.object({ from: z.string(), to: z.string() }))
      .openapi({ description: 'Query words this memory matched only as a correction: `from` as you wrote it (normalised), `to` the word of yours it was corrected to.' }),
    semantic: z.boolean().openapi({ description: 'true: found by meaning — it says what the query asks in other words; `highlights` only show words that matched.' }),
    highlights: z.array(SearchHighlight).openapi({ description: 'Where the matching words are in `content`, in order (at most 64).' }),
  })
  .openapi('SearchMatch');

export const SearchResultSchema = z
  .object({
    ...memoryFields,
    score: z.number().min(0).max(1).openapi({
      description:
        `Relevance from 0 to 1: the share of the best conceivable match for this query (every word found exactly, every phrase as written), weighted by how rare each word is among your memories; or its closeness in meaning (at most ${SEMANTIC_SCORE_CAP}) when higher. Results are ordered by it.`,
    }),
    match: SearchMatch,
  })
  .openapi('MemorySearchResult');

export const MemoryIdParams = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V' }),
});

/** Wire shape (snake_case, ISO dates) of a memory. */
/** The wire shapes of the memory operations, for typed callers: the CLI, the tests. */
export type CreateMemoryRequest = z.input<typeof CreateMemoryBody>;
export type UpdateMemoryRequest = z.input<typeof UpdateMemoryBody>;
export type MemoryResponse = z.infer<typeof MemorySchema>;
export type SearchResultResponse = z.infer<typeof SearchResultSchema>;

export function toMemoryResponse(record: MemoryRecord): MemoryResponse {
  return memoryFieldsOf(record);
}

/** The wire fields of a memory, in one object that callers may add to (no second copy). */
function memoryFieldsOf<Extra extends object = object>(record: MemoryRecord, extra?: Extra): MemoryResponse & Extra {
  return {
    id: record.id,
    scope: record.scope,
    source: record.source,
    content: record.content,
    tags: record.tags,
    contexts: record.contexts.map((context) => ({
      id: context.id,
      snippet: context.snippet,
      citation: context.citation,
      conversation_id: context.conversationId,
      message_id: context.messageId,
      origin: context.origin,
      created_at: context.createdAt,
    })),
    superseded_by: record.supersededBy,
    expires_at: record.expiresAt,
    pinned: record.pinned,
    use_count: record.useCount,
    last_used_at: record.lastUsedAt,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    ...(extra as Extra),
  };
}

export function toSavedMemoryResponse(saved: MemoryRecord & { redacted: number }): z.infer<typeof SavedMemorySchema> {
  return memoryFieldsOf(saved, { redacted: saved.redacted });
}

export function toCreatedMemoryResponse(created: MemoryRecord & { redacted: number; duplicate: boolean; similar: { id: string; score: number; content: string }[] }): z.infer<typeof CreatedMemorySchema> {
  return memoryFieldsOf(created, { redacted: created.redacted, duplicate: created.duplicate, similar: created.similar });
}

/** The `include_superseded` parameter of list and search. */
export const IncludeSuperseded = z
  .enum(['true', 'false'])
  .optional()
  .openapi({ description: '`true`: also replaced memories (with `superseded_by`).' });

export function toSearchResult(record: ScoredMemoryRecord): SearchResultResponse {
  return memoryFieldsOf(record, { score: record.score, match: record.match });
}
