import { bigint, boolean, char, index, int, mediumtext, mysqlEnum, mysqlTable, primaryKey, uniqueIndex, varchar } from 'drizzle-orm/mysql-core';
import { idColumn, jsonColumn, timestamp } from './columns';
import { orgIdColumn, userIdColumn } from './orgs';

/**
 * The harnesses whose hook payloads the service reads (docs/hooks.md). A MySQL ENUM: a new
 * one is appended at the end (an instant ALTER), never inserted.
 */
export const HARNESSES = ['claude-code', 'codex', 'opencode', 'generic', 'gemini-cli', 'cursor', 'cline', 'kimi', 'factory', 'kilo', 'copilot'] as const;
export type Harness = (typeof HARNESSES)[number];

/** The kinds a harness's hook payload can become. */
export const HOOK_EVENT_KINDS = ['message', 'tool_call', 'tool_result', 'compaction', 'checkpoint', 'annotation', 'lifecycle'] as const;
export type HookEventKind = (typeof HOOK_EVENT_KINDS)[number];

/** Every ledger kind: the hook kinds, and `recall` — what Memory Bank itself put into the session (never from a hook). */
export const EVENT_KINDS = [...HOOK_EVENT_KINDS, 'recall'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const EVENT_ROLES = ['user', 'assistant', 'tool', 'system'] as const;
export type EventRole = (typeof EVENT_ROLES)[number];

export const TOOL_OUTCOMES = ['success', 'error'] as const;
export type ToolOutcome = (typeof TOOL_OUTCOMES)[number];

/** What the ingest path records about sanitizing one payload. */
export interface EventMetadata {
  redactions: Record<string, number>;
  truncations: number;
  truncated_bytes: number;
  cwd?: string;
}

/** The longest project key stored; a longer one is stored as its SHA-256 (projectKey()). */
export const PROJECT_KEY_MAX = 512;

/** One harness session of one user. */
export const workstreams = mysqlTable(
  'workstreams',
  {
    id: idColumn('id').primaryKey(),
    orgId: orgIdColumn(),
    userId: userIdColumn(),
    harness: mysqlEnum('harness', HARNESSES).notNull(),
    /** utf8mb4_bin (drizzle/0008): session ids compare byte for byte. See sessionKey(). */
    nativeSessionId: varchar('native_session_id', { length: 255 }).notNull(),
    cwd: varchar('cwd', { length: 1024 }),
    /**
     * What groups sessions into one project for recall's "last time in this project": the
     * client's project key (the normalised git remote, else the repository root, else the
     * working directory; docs/hooks.md "Project identity"), else the normalised cwd. Only
     * a grouping key inside the owner's own rows, never an authority.
     */
    project: varchar('project', { length: PROJECT_KEY_MAX }),
    transcriptPath: varchar('transcript_path', { length: 1024 }),
    model: varchar('model', { length: 128 }),
    createdAt: timestamp('created_at').notNull(),
    lastEventAt: timestamp('last_event_at').notNull(),
    endedAt: timestamp('ended_at'),
    /** Sequences are 1…last_sequence, gapless (assigned under this row's lock). */
    lastSequence: bigint('last_sequence', { mode: 'number', unsigned: true }).notNull().default(0),
    /** Events up to here are assigned to a segment. */
    archivedThrough: bigint('archived_through', { mode: 'number', unsigned: true }).notNull().default(0),
    /** Events after archived_through, their payload bytes and the oldest one's receive time. */
    pendingCount: int('pending_count', { unsigned: true }).notNull().default(0),
    pendingBytes: bigint('pending_bytes', { mode: 'number', unsigned: true }).notNull().default(0),
    pendingSince: timestamp('pending_since'),
    /** Seal what is pending now, whatever its age (SessionEnd). */
    sealRequested: boolean('seal_requested').notNull().default(false),
  },
  (t) => [
    uniqueIndex('workstreams_native').on(t.orgId, t.userId, t.harness, t.nativeSessionId),
    index('workstreams_owner_activity').on(t.orgId, t.userId, t.lastEventAt, t.id),
    // The owner's sessions of one project, newest first (recall's "last time in this project").
    index('workstreams_owner_project').on(t.orgId, t.userId, t.project, t.lastEventAt, t.id),
    index('workstreams_pending').on(t.pendingSince),
  ],
);

/** The append-only event ledger. FULLTEXT indexes live in drizzle/0004_workstream_fulltext.sql. */
export const workstreamEvents = mysqlTable(
  'workstream_events',
  {
    workstreamId: idColumn('workstream_id')
      .notNull()
      .references(() => workstreams.id, { onDelete: 'cascade' }),
    sequence: bigint('sequence', { mode: 'number', unsigned: true }).notNull(),
    eventId: varchar('event_id', { length: 128 }).notNull(),
    orgId: idColumn('org_id').notNull(),
    userId: idColumn('user_id').notNull(),
    harness: mysqlEnum('harness', HARNESSES).notNull(),
    kind: mysqlEnum('kind', EVENT_KINDS).notNull(),
    role: mysqlEnum('role', EVENT_ROLES).notNull(),
    /** The harness's own event name (PostToolUse, tool.execute.after, …). */
    event: varchar('event', { length: 64 }).notNull(),
    lifecycleOnly: boolean('lifecycle_only').notNull(),
    toolUseId: varchar('tool_use_id', { length: 128 }),
    toolName: varchar('tool_name', { length: 128 }),
    outcome: mysqlEnum('outcome', TOOL_OUTCOMES),
    content: mediumtext('content').notNull(),
    searchTerms: mediumtext('search_terms').notNull(),
    occurredAt: timestamp('occurred_at').notNull(),
    receivedAt: timestamp('received_at').notNull(),
    metadata: jsonColumn<EventMetadata>('metadata').notNull(),
    contentSha256: char('content_sha256', { length: 64 }).notNull(),
    /** SHA-256 of the canonical sanitized payload (the archive envelope's sha256). */
    payloadSha256: char('payload_sha256', { length: 64 }).notNull(),
    payloadBytes: int('payload_bytes', { unsigned: true }).notNull(),
    /** The canonical sanitized payload, kept until its segment is in object storage. */
    payload: mediumtext('payload'),
    segmentKey: varchar('segment_key', { length: 255 }),
  },
  (t) => [
    primaryKey({ columns: [t.workstreamId, t.sequence] }),
    uniqueIndex('workstream_events_event_id').on(t.workstreamId, t.eventId),
    index('workstream_events_tool_use').on(t.workstreamId, t.toolUseId),
    index('workstream_events_owner').on(t.orgId, t.userId),
    // A session's events of one kind, newest last (InnoDB appends the primary key): its
    // recalls and its last prompt and reply, without reading the whole session.
    index('workstream_events_kind').on(t.workstreamId, t.kind),
  ],
);

/** JSONL objects in the archive, one row per segment: the ledger knows what it wrote. */
export const archiveSegments = mysqlTable(
  'archive_segments',
  {
    key: varchar('object_key', { length: 255 }).primaryKey(),
    orgId: idColumn('org_id').notNull(),
    workstreamId: idColumn('workstream_id').notNull(),
    firstSequence: bigint('first_sequence', { mode: 'number', unsigned: true }).notNull(),
    lastSequence: bigint('last_sequence', { mode: 'number', unsigned: true }).notNull(),
    /** Size and SHA-256 of the object, known once it is built and stored. */
    bytes: int('bytes', { unsigned: true }),
    sha256: char('sha256', { length: 64 }),
    createdAt: timestamp('created_at').notNull(),
    /** Null until the object is stored; the sealer retries until it is. */
    uploadedAt: timestamp('uploaded_at'),
    attempts: int('attempts', { unsigned: true }).notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at').notNull(),
    lastError: varchar('last_error', { length: 512 }),
  },
  (t) => [
    index('archive_segments_workstream').on(t.workstreamId, t.firstSequence),
    index('archive_segments_retry').on(t.uploadedAt, t.nextAttemptAt),
    // Workstream retention: an org's segments by age (a segment is claimed after its newest event arrived).
    index('archive_segments_org_age').on(t.orgId, t.createdAt),
  ],
);

/** Objects to delete (deleted workstreams): retried until the store confirms. */
export const archiveDeletions = mysqlTable(
  'archive_deletions',
  {
    key: varchar('object_key', { length: 255 }).primaryKey(),
    orgId: idColumn('org_id').notNull(),
    requestedAt: timestamp('requested_at').notNull(),
    attempts: int('attempts', { unsigned: true }).notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at').notNull(),
    lastError: varchar('last_error', { length: 512 }),
  },
  (t) => [index('archive_deletions_due').on(t.nextAttemptAt)],
);

export type WorkstreamRow = typeof workstreams.$inferSelect;
export type WorkstreamEventRow = typeof workstreamEvents.$inferSelect;
export type ArchiveSegmentRow = typeof archiveSegments.$inferSelect;
