/**
 * The service's limits, each declared once: routes publish them (zod schemas, OpenAPI),
 * services enforce them, docs/api.md#limits lists them. Below every layer: imports nothing.
 */

/** Request bodies (a hook batch has its own, HOOK_LIMITS.batchBytes). */
export const BODY_LIMITS = {
  /** Largest request body /v1 and /mcp accept. */
  requestBytes: 1024 * 1024,
  /**
   * An answer that closes the connection before the body has all been read (413, 408, an
   * import stopped at its deadline) closes it in stages (RFC 9112 §9.6): the answer, then
   * the server's side, then — while the client may still be sending — up to lingerBytes
   * more of the body are read and dropped, for at most lingerMs, so the client reads the
   * answer instead of a reset.
   */
  lingerMs: 2000,
  lingerBytes: 64 * 1024 * 1024,
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
  /** Contexts a memory holds at most: equal saves add theirs to it up to this many. */
  contextsPerMemory: 64,
  /** Memories one save may supersede. */
  supersedes: 16,
  /** The longest `ttl_seconds` (and how far ahead `expires_at` may be): ten years. */
  ttlSeconds: 10 * 365 * 24 * 3600,
  /** At most this many `similar` memories answer a save… */
  similarCount: 3,
  /** …each at least this similar (the search score, 0–1, of the memory for the saved text). */
  similarScore: 0.5,
  /** The saved text, cut to this many characters, is the query that finds similar memories… */
  similarQueryChars: 512,
  /**
   * …by its this many words rarest among the owner's memories (a score is relative to them),
   * chosen among twice as many of its longest words.
   */
  similarQueryWords: 8,
  /** Candidates ranked for them (a search ranks 64). */
  similarCandidates: 16,
} as const;

/** Export and import of memories as NDJSON (docs/api.md#export-and-import). */
export const TRANSFER_LIMITS = {
  /**
   * Largest import body. Above BODY_LIMITS.requestBytes: an import is read line by line,
   * never whole, so its size costs time, not memory. A line is a save: it is bounded by
   * BODY_LIMITS.requestBytes and the save's own schema, nothing restated here.
   */
  importBytes: 32 * 1024 * 1024,
  /**
   * An import saves its lines in chunks, one transaction and one multi-row INSERT each: up to
   * this many lines, or fewer once their saves reach importChunkBytes. A chunk is the unit of
   * the deadline too: an import stops between chunks.
   */
  importChunkLines: 100,
  importChunkBytes: 1024 * 1024,
  /** An import stops taking lines at this share of REQUEST_TIMEOUT_MS and answers what it did (`complete: false`). */
  importTimeShare: 0.8,
  /** Line numbers listed per outcome in an import's answer (the counts are always whole). */
  reportedLines: 1000,
  /** Memories read from the database per page while an export streams. */
  exportPageSize: 100,
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

/** Limits of recall (docs/api.md#recall, docs/hooks.md#recall). */
export const RECALL_LIMITS = {
  /** Characters injected when neither the key nor the request says otherwise. */
  defaultBudgetChars: 2000,
  /** Below this, the header and one memory's id leave no room for its text. */
  minBudgetChars: 300,
  maxBudgetChars: 20000,
  /** Memories considered per recall (after those already shown in the session). */
  candidates: 10,
  /** Search results read per recall: the candidates and room for those already shown in the session. */
  searchLimit: 30,
  /** A memory is never given more than this share of the budget, so one long memory cannot crowd out the rest. */
  memoryShare: 0.4,
  /** The "last time" note takes at most this share of the budget. */
  noteShare: 0.3,
  /** A memory cut to fewer characters than this is left out rather than shown as a stub. */
  minMemoryChars: 60,
  promptChars: 8000,
  cwdChars: 1024,
  repositoryChars: 200,
  /** Of the previous session's last prompt and reply, at most this much is read (each). */
  exchangeReadChars: 600,
  /** Pinned memories put first at session start, at most (the most recently changed). */
  pinned: 10,
} as const;

/**
 * How recall orders the memories that matched (docs/hooks.md#recall-ranking-and-pins):
 * `relevance × (1 + recencyWeight·recency + useWeight·use)`, where
 * `recency = 2^(−days since updated_at / halfLifeDays)` and
 * `use = min(1, log2(1 + use_count) / log2(1 + useSaturation)) × 2^(−days since last_used_at / halfLifeDays)`.
 * Relevance dominates: a memory more than 1 + recencyWeight + useWeight times as relevant
 * as another always comes first; between near-equal matches the fresher, more used one does.
 */
export const RECALL_RANKING = {
  halfLifeDays: 30,
  recencyWeight: 0.1,
  useWeight: 0.1,
  /** Uses count on a log scale up to this many (1 use: a fifth, 3: two fifths, 31 or more: all). */
  useSaturation: 31,
} as const;

/** Counting what agents are given (use_count, last_used_at): best effort, batched per process. */
export const MEMORY_USE_LIMITS = {
  /** Uses are written this long after the first of a burst, one UPDATE per org. */
  flushDelayMs: 1000,
  /** …or at once when this many memories wait. */
  pendingMemories: 1000,
  /** Memory ids per UPDATE. */
  idsPerStatement: 500,
} as const;

/** Graceful shutdown, after the drain of in-flight requests (SHUTDOWN_DRAIN_MS). */
export const SHUTDOWN_LIMITS = {
  /** Time to seal and store pending archive segments and close the pool before giving up (exit 1). */
  cleanupMs: 15_000,
} as const;

/** Org settings (PATCH /v1/org) and the background jobs that act on them (services/maintenance.ts). */
export const RETENTION_LIMITS = {
  /** `memory_retention_days` and `workstream_retention_days`: whole days, 1 up to this (a hundred years). */
  maxDays: 36_500,
  /** How often each API process tries to run the maintenance jobs (the one holding the lease runs them). */
  intervalMs: 15_000,
  /** How long a run's lease lasts unless renewed; its holder renews it every third of this while it works. */
  leaseMs: 30_000,
  /** Memories deleted per transaction, and segments (with their events) per transaction. */
  batch: 50,
  /** Time one run spends on one job before it leaves the rest to the next run. */
  jobBudgetMs: 5_000,
  /** What doctor calls recent, and how long the record of each run is kept. */
  recentMs: 24 * 3600 * 1000,
  keepRunsMs: 7 * 24 * 3600 * 1000,
} as const;
