/**
 * The service's limits, each declared once: routes publish them (zod schemas, OpenAPI),
 * services enforce them, docs/api.md#limits lists them. Below every layer: imports nothing.
 */

/** Request bodies (a hook batch has its own, HOOK_LIMITS.batchBytes). */
export const BODY_LIMITS = {
  /** Largest request body /v1 and /mcp accept. */
  requestBytes: 1024 * 1024,
} as const;

/** Limits of the memory contract. */
export const MEMORY_LIMITS = {
  contentChars: 8000,
  tags: 32,
  tagChars: 64,
  contexts: 16,
  snippetChars: 4000,
  idChars: 128,
  citationBytes: 16 * 1024,
  citationDepth: 16,
  listLimit: 100,
  searchLimit: 50,
  queryChars: 512,
} as const;

/** Limits of hook ingestion. */
export const HOOK_LIMITS = {
  /** Largest hook payload accepted, after sanitizing, as canonical JSON. */
  payloadBytes: 1024 * 1024,
  /** A batch (POST /v1/hooks/batch), and a transaction of merged single posts alike. */
  batchEvents: 256,
  batchBytes: 8 * 1024 * 1024,
} as const;

/** Limits of reading workstreams. */
export const WORKSTREAM_LIMITS = {
  /** An event's content in a search result is cut here (the event itself has all of it). */
  searchContentChars: 4000,
} as const;

/** Idempotency-Key (hook deliveries and writes alike). */
export const IDEMPOTENCY_LIMITS = {
  /** 1–128 visible ASCII characters. */
  keyPattern: /^[\x21-\x7e]{1,128}$/,
  /** How long a write's key is remembered: a retry after this is a new request. */
  keyTtlMs: 24 * 60 * 60 * 1000,
} as const;
