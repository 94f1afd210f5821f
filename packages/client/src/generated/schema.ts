// Generated from the service's /openapi.json by `pnpm --filter @memory-bank/client generate`. Do not edit.
/* eslint-disable */
export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description The process is up. Does not touch the database.
         */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/interaction/{uid}/consent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What an app asks for
         * @description For the console's consent screen: the client, org and scopes of the authorization request this browser started (its interaction cookie names it). 404 when it expired or belongs to another browser.
         */
        get: operations["getOAuthConsent"];
        put?: never;
        /**
         * Allow or deny an app
         * @description Allows (a grant of the asked scopes your credential holds, remembered for this app) or denies (`access_denied` to the app). Answers where the browser goes next.
         */
        post: operations["postOAuthConsent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description The database answers and every migration is applied. Answers within 800 ms: a database that does not answer by then is a 503 problem.
         */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the audit trail
         * @description Destructive admin actions, exports and imports of memories, key creation and revocation, and member changes in your org, newest first. Actions: org.create, org.update (a setting changed), member.add, member.remove, member.purge, member.role, memory.delete, memory.export, memory.import, api_key.create, api_key.revoke, oauth.grant (a person allowed a connected app), oauth.revoke (a connected app was revoked).
         */
        get: operations["getAdminAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/members/{user_id}/memories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a member's memories (metadata only)
         * @description Admins and owners see what a member stores — ids, sizes, tags, dates, context counts — never the content. Newest first.
         */
        get: operations["getAdminMemberMemories"];
        put?: never;
        post?: never;
        /**
         * Purge a member's memories
         * @description Deletes all of the member's private memories with their contexts and, with `include=workstreams`, their workstreams including archived segments. Gone from search at once. Org-shared memories stay with the org. Audited.
         */
        delete: operations["deleteAdminMemberMemories"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Provision an org (operator)
         * @description Creates an org, its owner and the owner's first API key (shown once). Needs `Authorization: Bearer <MEMORY_BANK_OPERATOR_TOKEN>`; without that variable the route answers 404.
         */
        post: operations["postAdminOrg"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an org (operator)
         * @description Deletes the org and everything it holds: users, keys, memories, workstreams, its audit trail, and its objects in the archive. Needs the operator token; without MEMORY_BANK_OPERATOR_TOKEN the route answers 404.
         */
        delete: operations["deleteAdminOrgById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your API keys
         * @description Your keys, newest first, revoked ones included. Secrets are never shown again.
         */
        get: operations["getApiKeys"];
        put?: never;
        /**
         * Create an API key
         * @description A new key for yourself, with at most the scopes of the key making the call. The secret is shown once.
         */
        post: operations["postApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Revokes one of your keys; it stops working with the next request. Revoking a revoked key is a no-op. Revoking another key needs `keys:manage`; any key may revoke itself without it.
         */
        delete: operations["deleteApiKeyById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/hooks/{harness}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ingest one hook event
         * @description Records one lifecycle-hook payload of a coding agent. The payload is sanitized (secrets redacted), appended to its session's workstream with the next sequence number, and archived. A retried delivery (same Idempotency-Key, same tool_use_id and event, or byte-identical payload) answers `duplicate: true` with the original sequence.
         */
        post: operations["postHook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/hooks/{harness}/recall": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Recall for a hook payload, answered as hook output
         * @description postRecall for a hook command: takes the hook's JSON input as the harness gives it and answers with what the hook prints, in the harness's own shape — Claude Code, Codex, Factory Droid (SessionStart, UserPromptSubmit) and Gemini CLI (SessionStart, BeforeAgent) `{"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}`; Cursor (sessionStart) `{"additional_context":…}`; Cline (TaskStart, TaskResume, UserPromptSubmit) `{"contextModification":…}`; Kimi (UserPromptSubmit) the context as `text/plain`, its session's first one with the pinned memories. `{}` (Kimi: an empty body) when there is nothing to add, for other events and for Copilot, whose hooks cannot add context. integrations/recall.sh calls it.
         */
        post: operations["postHookRecall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/hooks/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ingest a batch of hook events
         * @description Up to 256 events / 8 MiB, of any sessions and harnesses, for clients that spool and drain. Each event is handled as a single post would be; the answer has one result per event, in order.
         */
        post: operations["postHooksBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List memories
         * @description Lists your memories and your org's shared ones, newest first, optionally by tag, source or scope; follow `next_cursor` until null. Use it to browse recent memories; to find memories about a topic use getMemorySearch.
         */
        get: operations["getMemory"];
        put?: never;
        /**
         * Save a memory
         * @description Saves one durable fact, decision or preference for later sessions; searchable at once. Use it when the user states something worth keeping or asks you to remember. An equal save is not stored twice (200, `duplicate: true`). Read `similar` in the answer: if one says the same or an older version, replace it (`supersedes`) or correct it (patchMemoryById) rather than keep both. `ttl_seconds` for what stops being true; `pinned` for what every session needs. Tags, and contexts (the source snippet) for citing. `scope: "org"` (admins) shares it with the team. Secrets are stored redacted. 409 at the org's quota or for a memory already superseded. Send an `Idempotency-Key` to make a retry safe.
         */
        post: operations["postMemory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memory/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a memory
         * @description Reads one memory whole by its mem_ id, with all its contexts. Use it after getMemorySearch or getMemory, before citing or changing a memory; to find memories by topic use getMemorySearch.
         */
        get: operations["getMemoryById"];
        put?: never;
        post?: never;
        /**
         * Delete a memory
         * @description Permanently deletes one memory and its contexts; gone from list, read and search at once. Only when the user asks or it is wrong; to fix one use patchMemoryById. Admins and owners may delete any memory of their org (audited); members not org-shared ones (403). With `If-Match`, only if still that version (412 otherwise).
         */
        delete: operations["deleteMemoryById"];
        options?: never;
        head?: never;
        /**
         * Update a memory
         * @description Corrects a memory: replaces its content and/or tags (contexts are kept; secrets in new content are redacted as on save), sets or clears its expiry, pins or unpins it; search sees it at once. Use it when a saved fact changed, rather than saving a contradicting memory with postMemory. Org-shared memories: admins and owners only (403). With `If-Match`, only if still that version (412 otherwise).
         */
        patch: operations["patchMemoryById"];
        trace?: never;
    };
    "/v1/memory/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A memory and its versions
         * @description Every version of a memory replaced through `supersedes`, the current one first: how a fact changed. A memory never superseded is its own history.
         */
        get: operations["getMemoryHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memory/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export memories as NDJSON
         * @description Streams the memories you can read — yours, your org's shared ones, or both (`scope`) — newest first, one JSON object per line, each exactly as getMemoryById answers it (contexts included). `POST /v1/memory/import` takes the file back. A member's private memories are only ever in their own export. Audited as `memory.export` once the last line is sent. An error after the first line ends the stream without its last chunk, so a cut-off export is never mistaken for a whole one.
         */
        get: operations["getMemoryExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memory/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import memories from NDJSON
         * @description Saves each line of an NDJSON body as a memory, as `POST /v1/memory` would (same schema and limits, secrets redacted, the org's quota), reading the body as it arrives. Lines may be this API's export lines or save bodies, mem0 memory objects (`memory` → content, `categories` → tags) or supermemory documents (`content`). A bad line is reported by number and nothing of it is stored; the others are saved. A line asking for a save (text, tags, contexts, scope) that an earlier import by the same user already made is skipped, however long ago, so a file can be sent again safely; lines are saved in transactions of up to 100. `scope` stores every line with that scope instead of its own. Bodies up to 33554432 bytes, lines up to 1048576. Audited as `memory.import`.
         */
        post: operations["postMemoryImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memory/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search memories
         * @description Finds memories about a topic, yours and your org's, by their words (typos corrected from your own words) and by meaning, best first; each result says which words matched or that meaning found it. Use it before answering anything that may depend on earlier work; short words such as "Go" or "Q3" work. No match is an empty list. To browse without a query use getMemory.
         */
        get: operations["getMemorySearch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List connected apps
         * @description The OAuth clients (Claude, ChatGPT, …) you allowed to use Memory Bank through /mcp/oauth, newest first. Admins: `user_id` lists a member's, `all=true` the whole org's.
         */
        get: operations["getOAuthGrants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/grants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a connected app
         * @description Deletes the grant and every token issued under it: the app is refused from its next request. Admins may revoke any member's.
         */
        delete: operations["deleteOAuthGrantById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/org": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get your org and its settings
         * @description The org and its settings. Admins and owners.
         */
        get: operations["getOrg"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change org settings
         * @description Changes the settings named in the body (at least one; the others keep their values). Admins and owners. A change is written to the audit trail (`org.update`, the new values in `counts`).
         */
        patch: operations["patchOrg"];
        trace?: never;
    };
    "/v1/org/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your org's members
         * @description Every user of the org with their role; removed members are listed with `removed_at`. Admins and owners.
         */
        get: operations["getOrgMembers"];
        put?: never;
        /**
         * Add a member to your org
         * @description Org admins and owners add a user and receive the user's first API key (shown once).
         */
        post: operations["postOrgMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/org/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member
         * @description Revokes the member's keys at once and, unless `keep_data=true`, purges their private memories and their workstreams (archived objects included). Admins remove members; only owners remove admins and owners; nobody removes themselves. Audited.
         */
        delete: operations["deleteOrgMemberById"];
        options?: never;
        head?: never;
        /**
         * Change a member's role
         * @description Gives a member another role, from their next request on. Admins change members and admins; only owners make, unmake or change owners; nobody changes their own role; an org keeps an owner. Admin powers also need a key with the `admin` scope. Audited as `member.role` when the role changes.
         */
        patch: operations["patchOrgMemberById"];
        trace?: never;
    };
    "/v1/recall": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Recall memories into an agent session
         * @description What to put into an agent session's context now: your memories (and your org's shared ones) most relevant to the user's prompt, or at session start to the project, each cited by id, plus once per session a note on where the last session in the same project (`project`, else the directory) left off. Within a character budget; memories already recalled into this session are not repeated. Each recall that returns context is recorded in the session's ledger as a `recall` event. Agent hooks call this at session start and on every prompt (docs/hooks.md#recall); to look something up on purpose, use getMemorySearch.
         */
        post: operations["postRecall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workstreams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List workstreams
         * @description Lists your recorded agent sessions (one workstream per harness session, ws_ ids), most recently active first; pages follow `next_cursor` until it is null. Use it to find an earlier session to look into; to find sessions by what happened in them use getWorkstreamsSearch.
         */
        get: operations["getWorkstreams"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workstreams/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a workstream
         * @description Reads one recorded agent session by its ws_ id: harness, session id, working directory, event count, activity and archive state. For what happened in it use getWorkstreamEvents (the timeline) or getWorkstreamActions (tool calls and their results).
         */
        get: operations["getWorkstreamById"];
        put?: never;
        post?: never;
        /**
         * Delete a workstream
         * @description Deletes the session: its ledger rows at once (gone from search when this returns), then its archived objects. Objects that cannot be deleted right away are retried until they are.
         */
        delete: operations["deleteWorkstreamById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workstreams/{id}/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the agent did
         * @description Each tool call paired with its result by tool_use_id, in the order the calls were made, with an outcome: success, error, or no_result (no result arrived).
         */
        get: operations["getWorkstreamActions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workstreams/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a workstream's events
         * @description Reads the timeline of one recorded session in sequence order: prompts, replies and tool events (lifecycle-only events hidden unless include_lifecycle=true), paged with `after`. Use it to see what was said; for tool calls paired with their results use getWorkstreamActions.
         */
        get: operations["getWorkstreamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workstreams/{id}/events/{sequence}/remember": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Remember an event
         * @description Saves a memory whose context cites this event (`origin: searched_conversation`, citation `{ workstream_id, sequence, event_id }`). Content defaults to the event text.
         */
        post: operations["postWorkstreamEventRemember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workstreams/{id}/raw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the raw archive
         * @description The sanitized payloads of every event as JSONL envelopes `{ v, event_id, workstream_id, sequence, harness, event, occurred_at, received_at, sha256, payload }`, in sequence order: archived segments from object storage, then events not archived yet.
         */
        get: operations["getWorkstreamRaw"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workstreams/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search agent sessions
         * @description Full-text search over the events of your sessions (prompts, tool calls and results, notes), with the same rules as memory search: best match first, short words found, operators treated as text. Lifecycle events are searched too.
         */
        get: operations["getWorkstreamsSearch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AddMember: {
            /** @example ada@example.com */
            email: string;
            /**
             * @description Only an owner can add another owner.
             * @enum {string}
             */
            role: "owner" | "admin" | "member";
        };
        ApiKey: {
            /** Format: date-time */
            created_at: string;
            /** @example key_01JD3W6Q8Z9K2M4N5P6R7S8T9V */
            id: string;
            /**
             * Format: date-time
             * @description Updated at most once a minute.
             */
            last_used_at: string | null;
            name: string;
            /**
             * @description The first characters of the key, to recognise it.
             * @example mbk_Ab3dE9xQ
             */
            prefix: string;
            /** @description Characters a recall made with this key may inject; null: the default. */
            recall_budget_chars: number | null;
            /** Format: date-time */
            revoked_at: string | null;
            scopes: ("memory:read" | "memory:write" | "hooks:write" | "workstreams:read" | "workstreams:write" | "keys:manage" | "admin")[];
        };
        /** @description Who did what to which ids, with counts — never content. */
        AuditEvent: {
            /** @example member.purge */
            action: string;
            actor: {
                key_id: string | null;
                /** @enum {string} */
                type: "user" | "operator";
                user_id: string | null;
            };
            counts: {
                [key: string]: number;
            } | null;
            /** Format: date-time */
            created_at: string;
            id: string;
            request_id: string;
            target: {
                id: string | null;
                type: string;
            };
        };
        ChangeMemberRole: {
            /**
             * @description The new role. Only an owner makes or unmakes owners.
             * @enum {string}
             */
            role: "owner" | "admin" | "member";
        };
        CreateApiKey: {
            /** @description What the key is for, 1–100 characters. */
            name: string;
            /** @description Characters a recall (postRecall) made with this key may inject, 300–20000; default 2000. */
            recall_budget_chars?: number | null;
            /** @description A subset of the calling key's scopes (default: all of them). */
            scopes?: ("memory:read" | "memory:write" | "hooks:write" | "workstreams:read" | "workstreams:write" | "keys:manage" | "admin")[];
        };
        CreatedMemory: {
            content: string;
            contexts: components["schemas"]["MemoryContext"][];
            /** Format: date-time */
            created_at: string;
            /** @description true (status 200): equal to a live memory of yours, which got this save's contexts and tags; nothing new stored. */
            duplicate: boolean;
            /** Format: date-time */
            expires_at: string | null;
            /** @example mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V */
            id: string;
            /** Format: date-time */
            last_used_at: string | null;
            pinned: boolean;
            /** @description How many secrets in `content` and the contexts (snippets, citations) this request replaced with `[REDACTED:<kind>]` before storing. 0 when the org turned redaction off (`redact_memory_secrets`). */
            redacted: number;
            /**
             * @description `user`: private to its owner; `org`: shared with the org.
             * @enum {string}
             */
            scope: "user" | "org";
            /** @description Up to 3 other live memories much like this one (score ≥ 0.5): if one says the same or an older version, PATCH it or supersede it instead of keeping both. */
            similar: {
                content: string;
                id: string;
                score: number;
            }[];
            /**
             * @description How it was saved: `api` (REST), `mcp` (an agent over MCP), `hook`.
             * @enum {string}
             */
            source: "api" | "mcp" | "hook";
            /** @description The memory that replaced this one; null while current. */
            superseded_by: string | null;
            tags: string[];
            /** Format: date-time */
            updated_at: string;
            /** @description How often an agent was given it (recall, MCP reads). */
            use_count: number;
        };
        CreateMemory: {
            /** @description The memory text, 1–8000 characters after trimming. */
            content: string;
            /** @description At most 16 citation contexts. */
            contexts?: components["schemas"]["MemoryContextInput"][];
            /**
             * Format: date-time
             * @description An RFC 3339 time (future) from which it is gone, then deleted.
             */
            expires_at?: string;
            /** @description First at session start; kept by retention. */
            pinned?: boolean;
            /**
             * @description `user` (default): private to you. `org`: shared with your whole org — admins and owners only (403 otherwise).
             * @enum {string}
             */
            scope?: "user" | "org";
            /** @description Your memories this one replaces: they leave list, search and recall. */
            supersedes?: string[];
            /** @description At most 32 tags of 1–64 characters; duplicates are dropped. */
            tags?: string[];
            /** @description Expires in this many seconds (instead of expires_at). */
            ttl_seconds?: number;
        };
        CreateOrg: {
            /** @description The org (tenant) name, 1–200 characters. */
            name: string;
            owner: {
                /** @example ada@example.com */
                email: string;
            };
        };
        HookBatch: {
            events: {
                /** @enum {string} */
                harness: "claude-code" | "codex" | "opencode" | "generic" | "gemini-cli" | "cursor" | "cline" | "kimi" | "factory" | "kilo" | "copilot";
                /** @description As the Idempotency-Key header of a single post. */
                idempotency_key?: string;
                /** @description When the event happened (epoch seconds or milliseconds, or ISO 8601), for clients that spool: used when the payload carries no time of its own (Claude Code's and Codex's carry none), instead of the time the batch arrived. */
                occurred_at?: number | string;
                /** @description The hook payload, as for POST /v1/hooks/{harness} (≤ 1 MiB). */
                payload?: {
                    [key: string]: unknown;
                };
                /** @description The session's project, so that recall's "last time in this project" finds the sessions of the same repository whatever the harness or checkout: the git remote `origin` without credentials (`github.com:acme/app.git`), else the repository's root, else the working directory; percent-encoded UTF-8 (a value without `%` may be sent as it is). The service normalises it (`github.com/acme/app`). Without it, the payload's working directory is the project. Only groups the caller's own sessions; a value it cannot read is ignored, never refused (docs/hooks.md#project-identity). */
                project?: string;
            }[];
        };
        HookBatchResult: {
            detail?: string;
            duplicate?: boolean;
            errors?: {
                message: string;
                path: string;
            }[];
            event_id?: string;
            index: number;
            sequence?: number;
            /** @description 202 recorded; 400 or 413 refused (see detail). */
            status: number;
            title?: string;
            type?: string;
            workstream_id?: string;
        };
        /** @description The hook's JSON input exactly as the harness gives it to a hook command (Claude Code: session_id, transcript_path, cwd, hook_event_name, …). At most 1 MiB. See docs/hooks.md. */
        HookPayload: {
            [key: string]: unknown;
        };
        HookReceipt: {
            /** @description True when this delivery was already recorded (the original sequence is returned). */
            duplicate: boolean;
            /** @description Idempotency-Key if sent; else derived from the harness ids or the payload hash. */
            event_id: string;
            /** @description Position in the workstream: gapless, strictly increasing. */
            sequence: number;
            workstream_id: string;
        };
        IssuedApiKey: components["schemas"]["ApiKey"] & {
            /**
             * @description The secret. Shown only in this response: store it now.
             * @example mbk_…
             */
            key: string;
        };
        Memory: {
            content: string;
            contexts: components["schemas"]["MemoryContext"][];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string | null;
            /** @example mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V */
            id: string;
            /** Format: date-time */
            last_used_at: string | null;
            pinned: boolean;
            /**
             * @description `user`: private to its owner; `org`: shared with the org.
             * @enum {string}
             */
            scope: "user" | "org";
            /**
             * @description How it was saved: `api` (REST), `mcp` (an agent over MCP), `hook`.
             * @enum {string}
             */
            source: "api" | "mcp" | "hook";
            /** @description The memory that replaced this one; null while current. */
            superseded_by: string | null;
            tags: string[];
            /** Format: date-time */
            updated_at: string;
            /** @description How often an agent was given it (recall, MCP reads). */
            use_count: number;
        };
        MemoryContext: {
            citation: {
                [key: string]: unknown;
            } | null;
            conversation_id: string | null;
            /** Format: date-time */
            created_at: string;
            /** @example mctx_01JD3W6Q8Z9K2M4N5P6R7S8T9V */
            id: string;
            message_id: string | null;
            /** @enum {string} */
            origin: "active_conversation" | "searched_conversation";
            snippet: string;
        };
        MemoryContextInput: {
            /** @description Where the snippet comes from, e.g. `{ "url": "…", "title": "…" }` (a JSON object, ≤ 16 KiB, ≤ 16 levels deep). */
            citation?: {
                [key: string]: unknown;
            } | null;
            conversation_id?: string | null;
            message_id?: string | null;
            /**
             * @description Default `active_conversation`.
             * @enum {string}
             */
            origin?: "active_conversation" | "searched_conversation";
            /** @description The passage the memory was drawn from (1–4000 characters). */
            snippet: string;
        };
        MemoryImportFailure: {
            /** @description The problem code a save of this line would have answered, e.g. `validation_failed`, `payload_too_large`, `forbidden`, `quota_exceeded`. */
            code: string;
            detail: string;
            errors?: {
                message: string;
                path: string;
            }[];
            /** @description Line number, from 1 (blank lines count). */
            line: number;
        };
        MemoryImportSummary: {
            /** @description False when the import stopped at its time limit before the end of the body: send the same file again; the lines already imported are skipped. */
            complete: boolean;
            /** @description Lines refused; nothing of them was stored. */
            failed: number;
            /** @description Why each failed line was refused (the first 1000). */
            failures: components["schemas"]["MemoryImportFailure"][];
            /** @description Lines saved as new memories. */
            imported: number;
            /** @description The last line read. */
            last_line: number;
            /** @description Lines an earlier import already saved (nothing stored again). */
            skipped: number;
            /** @description The skipped lines' numbers (the first 1000). */
            skipped_lines: number[];
        };
        /** @description What an admin may know of a memory: never its content or snippets. */
        MemoryMetadata: {
            context_count: number;
            /** Format: date-time */
            created_at: string;
            id: string;
            /** @enum {string} */
            scope: "user" | "org";
            /** @description Content size in bytes. */
            size: number;
            tags: string[];
            /** Format: date-time */
            updated_at: string;
        };
        MemorySearchResult: {
            content: string;
            contexts: components["schemas"]["MemoryContext"][];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string | null;
            /** @example mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V */
            id: string;
            /** Format: date-time */
            last_used_at: string | null;
            match: components["schemas"]["SearchMatch"];
            pinned: boolean;
            /**
             * @description `user`: private to its owner; `org`: shared with the org.
             * @enum {string}
             */
            scope: "user" | "org";
            /** @description Relevance from 0 to 1: the share of the best conceivable match for this query (every word found exactly, every phrase as written), weighted by how rare each word is among your memories; or its closeness in meaning (at most 0.45) when higher. Results are ordered by it. */
            score: number;
            /**
             * @description How it was saved: `api` (REST), `mcp` (an agent over MCP), `hook`.
             * @enum {string}
             */
            source: "api" | "mcp" | "hook";
            /** @description The memory that replaced this one; null while current. */
            superseded_by: string | null;
            tags: string[];
            /** Format: date-time */
            updated_at: string;
            /** @description How often an agent was given it (recall, MCP reads). */
            use_count: number;
        };
        OAuthConsentRequest: {
            client: {
                client_id: string;
                client_name: string | null;
                client_uri: string | null;
                /** @description The host the person is sent back to. */
                redirect_host: string;
                /** @description Whether that host differs from the client's own (its client id's or client_uri's host). */
                redirect_host_differs: boolean;
            };
            org: {
                id: string;
                name: string;
            };
            /** @description The person already allowed this client these scopes. */
            remembered: boolean;
            scopes: {
                description: string;
                /** @enum {string} */
                scope: "memory:read" | "memory:write" | "hooks:write" | "workstreams:read" | "workstreams:write" | "keys:manage" | "admin";
            }[];
            user: {
                email: string | null;
                id: string;
                /** @enum {string} */
                role: "owner" | "admin" | "member";
            };
        };
        OAuthGrant: {
            /** @example https://claude.ai/oauth/mcp-oauth-client-metadata */
            client_id: string;
            /** @description The name the client gave itself, as the consent screen showed it. */
            client_name: string | null;
            /** Format: date-time */
            created_at: string;
            /** @example Xk3v… */
            id: string;
            /**
             * Format: date-time
             * @description The last request with one of its access tokens (to the minute).
             */
            last_used_at: string | null;
            scopes: string[];
            user_id: string;
        };
        Org: {
            /** Format: date-time */
            created_at: string;
            /** @description A save equal to a live memory of the same owner and scope adds to that memory instead of storing a copy (default `true`). */
            dedupe_memories: boolean;
            /** @example org_01JD3W6Q8Z9K2M4N5P6R7S8T9V */
            id: string;
            /** @description Memories not updated for this many days are deleted (pinned ones are kept); `null` (the default): kept until deleted. */
            memory_retention_days: number | null;
            name: string;
            /** @description Secrets in memory content and contexts are replaced with `[REDACTED:<kind>]` on save and update (default `true`). */
            redact_memory_secrets: boolean;
            /** @description Workstream events received more than this many days ago leave the ledger and the archive; `null` (the default): kept until deleted. */
            workstream_retention_days: number | null;
        };
        /** @description RFC 9457 problem details. */
        Problem: {
            /** @example Memory not found */
            detail: string;
            /** @description Per-field problems of a 400 validation_failed. */
            errors?: {
                message: string;
                path: string;
            }[];
            /** @example 01JD3W6Q8Z9K2M4N5P6R7S8T9V */
            request_id: string;
            /** @example 404 */
            status: number;
            /** @example Not Found */
            title: string;
            /** @example urn:memory-bank:problem:not_found */
            type: string;
        };
        PurgeCounts: {
            contexts: number;
            memories: number;
            /** @description Archived segment objects deleted from object storage. */
            segments: number;
            workstreams: number;
        };
        Recall: {
            /** @description Matching memories left out because this session was already shown them. */
            already_shown: number;
            budget_chars: number;
            /** @description The text to add to the model's context, within the budget; empty when there is nothing new to recall. */
            context: string;
            /** @description The previous session in the same project, when its note is in `context` (once per session). */
            last_session: {
                /** Format: date-time */
                last_event_at: string;
                prompt: string | null;
                reply: string | null;
                workstream_id: string;
            } | null;
            /** @description The memories in `context`, in order, each cited there as `[mem_…]`: pinned ones first at session start, then by rank (docs/hooks.md#recall-ranking-and-pins). */
            memories: {
                /** @example mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V */
                id: string;
                /** @description A pinned memory: at session start, pinned memories come first. */
                pinned: boolean;
                /** @enum {string} */
                scope: "user" | "org";
                /** @description Relevance to the recall's query, 0–1 as in search (0 for a pinned memory that did not match it). */
                score: number;
                /** @description Only the start of the memory fitted. */
                truncated: boolean;
            }[];
            /** @description The `recall` event of the session that records what was shown; null when `context` is empty. */
            recorded: {
                event_id: string;
                sequence: number;
                workstream_id: string;
            } | null;
        };
        RecallHookOutput: {
            /** @description Cursor, on sessionStart. */
            additional_context?: string;
            /** @description Cline, on TaskStart, TaskResume and UserPromptSubmit. */
            contextModification?: string;
            /** @description Claude Code, Codex, Gemini CLI, Factory Droid (and the generic form). */
            hookSpecificOutput?: {
                additionalContext: string;
                hookEventName: string;
            };
        };
        RecallRequest: {
            /** @description The working directory of the session: previous sessions there give the note. */
            cwd?: string;
            /**
             * @description The harness of that session (default `generic`).
             * @enum {string}
             */
            harness?: "claude-code" | "codex" | "opencode" | "generic" | "gemini-cli" | "cursor" | "cline" | "kimi" | "factory" | "kilo" | "copilot";
            /** @description At most this many characters of context; never more than the API key's recall budget (default 2000). */
            max_chars?: number;
            /** @description The session's project, so that recall's "last time in this project" finds the sessions of the same repository whatever the harness or checkout: the git remote `origin` without credentials (`github.com:acme/app.git`), else the repository's root, else the working directory; percent-encoded UTF-8 (a value without `%` may be sent as it is). The service normalises it (`github.com/acme/app`). Without it, the payload's working directory is the project. Only groups the caller's own sessions; a value it cannot read is ignored, never refused (docs/hooks.md#project-identity). */
            project?: string;
            /** @description The user's prompt (required for trigger `prompt`), up to 8000 characters. */
            prompt?: string;
            /** @description The repository's name, when the caller knows it (otherwise the directory's name is used). */
            repository?: string;
            /** @description The agent session the recall is for: the harness's own session id (Claude Code `session_id`, OpenCode `sessionID`). */
            session_id: string;
            /**
             * @description `session_start`: memories about the project (repository, directory, where the last session there left off) and the "last time in this project" note; `prompt`: memories relevant to `prompt`.
             * @enum {string}
             */
            trigger: "session_start" | "prompt";
        };
        RememberEvent: {
            /** @description The memory text, 1–8000 characters after trimming. */
            content?: string;
            /** @description At most 32 tags of 1–64 characters; duplicates are dropped. */
            tags?: string[];
        };
        SavedMemory: {
            content: string;
            contexts: components["schemas"]["MemoryContext"][];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string | null;
            /** @example mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V */
            id: string;
            /** Format: date-time */
            last_used_at: string | null;
            pinned: boolean;
            /** @description How many secrets in `content` and the contexts (snippets, citations) this request replaced with `[REDACTED:<kind>]` before storing. 0 when the org turned redaction off (`redact_memory_secrets`). */
            redacted: number;
            /**
             * @description `user`: private to its owner; `org`: shared with the org.
             * @enum {string}
             */
            scope: "user" | "org";
            /**
             * @description How it was saved: `api` (REST), `mcp` (an agent over MCP), `hook`.
             * @enum {string}
             */
            source: "api" | "mcp" | "hook";
            /** @description The memory that replaced this one; null while current. */
            superseded_by: string | null;
            tags: string[];
            /** Format: date-time */
            updated_at: string;
            /** @description How often an agent was given it (recall, MCP reads). */
            use_count: number;
        };
        SearchHighlight: {
            /** @description Offset just past the match (exclusive). */
            end: number;
            /**
             * @description `exact`: the word itself; `stem`: another form of it (rotate ~ rotating); `correction`: the word a misspelt query word was corrected to (see `match.corrections`); `part`: part of an identifier (Invoice in createInvoice); `prefix`: a word it begins.
             * @enum {string}
             */
            kind: "exact" | "stem" | "correction" | "part" | "prefix";
            /** @description Offset in `content` where the match starts, in UTF-16 code units (JavaScript string indices). */
            start: number;
        };
        SearchMatch: {
            /** @description Query words this memory matched only as a correction: `from` as you wrote it (normalised), `to` the word of yours it was corrected to. */
            corrections: {
                from: string;
                to: string;
            }[];
            /** @description Where the matching words are in `content`, in order (at most 64). */
            highlights: components["schemas"]["SearchHighlight"][];
            /** @description Quoted phrases (and words written together, such as `v1.32.2`) found as written. */
            phrases: string[];
            /** @description true: found by meaning — it says what the query asks in other words; `highlights` only show words that matched. */
            semantic: boolean;
            /** @description The query words this memory matched, lower-cased and normalised. */
            terms: string[];
        };
        ToolAction: {
            /** @description The tool call (PreToolUse…), if the harness reported it. */
            call: {
                content: string;
                event_id: string;
                occurred_at: string;
                sequence: number;
            } | null;
            /** @enum {string} */
            outcome: "success" | "error" | "no_result";
            /** @description Its result (PostToolUse…); null while none arrived. */
            result: {
                content: string;
                event_id: string;
                occurred_at: string;
                sequence: number;
            } | null;
            tool_name: string | null;
            tool_use_id: string | null;
        };
        UpdateMemory: {
            /** @description The memory text, 1–8000 characters after trimming. */
            content?: string;
            /**
             * Format: date-time
             * @description A new expiry (RFC 3339, future); null removes it.
             */
            expires_at?: string | null;
            /** @description First at session start; kept by retention. */
            pinned?: boolean;
            /** @description At most 32 tags of 1–64 characters; duplicates are dropped. */
            tags?: string[];
            /** @description Expires in this many seconds (instead of expires_at). */
            ttl_seconds?: number;
        };
        UpdateOrg: {
            /** @description `true` (the default): a save whose content equals a live memory of the same owner and scope adds to that memory and answers it with `duplicate: true`. `false`: every save stores a memory. */
            dedupe_memories?: boolean;
            /** @description Memories not updated for this many days are deleted (pinned ones are kept), within a minute of becoming due. 1–36500, or `null` to keep them until deleted. */
            memory_retention_days?: number | null;
            /** @description `false`: memories are stored as sent, secrets included (hook payloads are always redacted). `true` (the default): secrets in memory content and contexts are redacted on save and update. */
            redact_memory_secrets?: boolean;
            /** @description Workstream events received more than this many days ago leave the ledger, and their archived segments the object store, within a minute of becoming due. 1–36500, or `null` to keep them until deleted. */
            workstream_retention_days?: number | null;
        };
        User: {
            /** Format: date-time */
            created_at: string;
            email: string;
            /** @example usr_01JD3W6Q8Z9K2M4N5P6R7S8T9V */
            id: string;
            /**
             * Format: date-time
             * @description Set once removed from the org.
             */
            removed_at: string | null;
            /** @enum {string} */
            role: "owner" | "admin" | "member";
        };
        Workstream: {
            /** Format: date-time */
            created_at: string;
            cwd: string | null;
            /** Format: date-time */
            ended_at: string | null;
            /** @description Events the session recorded; sequences run 1…event_count without gaps, except that events the org's `workstream_retention_days` no longer keeps are gone from the start. */
            event_count: number;
            /** @enum {string} */
            harness: "claude-code" | "codex" | "opencode" | "generic" | "gemini-cli" | "cursor" | "cline" | "kimi" | "factory" | "kilo" | "copilot";
            /** @example ws_01JD3W6Q8Z9K2M4N5P6R7S8T9V */
            id: string;
            /** Format: date-time */
            last_event_at: string;
            model: string | null;
            /** @description The harness's own session id. */
            native_session_id: string;
            /** @description Events not yet sealed into a segment. A sealed segment is stored at once, or retried while object storage is down (`pnpm cli doctor` shows what waits). */
            pending_archive: number;
            /**
             * @description What recall's "last time in this project" groups the session by: its git remote (`github.com/acme/app`) or repository root as the client named it (Memory-Bank-Project), else its directory.
             * @example github.com/acme/app
             */
            project: string | null;
            transcript_path: string | null;
        };
        WorkstreamEvent: {
            /** @description Sealed into a segment: stored in object storage, or being retried while it is down. */
            archived: boolean;
            content: string;
            content_sha256: string;
            /** @description The harness's event name, e.g. PostToolUse. */
            event: string;
            event_id: string;
            /** @enum {string} */
            kind: "message" | "tool_call" | "tool_result" | "compaction" | "checkpoint" | "annotation" | "lifecycle" | "recall";
            /** @description Hidden from the default timeline (include_lifecycle=true shows it). */
            lifecycle_only: boolean;
            /** Format: date-time */
            occurred_at: string;
            /** @enum {string|null} */
            outcome: "success" | "error" | null;
            payload_sha256: string;
            /** Format: date-time */
            received_at: string;
            /** @description Secrets redacted from the payload, by kind. */
            redactions: {
                [key: string]: number;
            };
            /** @enum {string} */
            role: "user" | "assistant" | "tool" | "system";
            sequence: number;
            tool_name: string | null;
            tool_use_id: string | null;
            truncations: number;
            workstream_id: string;
        };
        WorkstreamSearchResult: {
            /** @description Sealed into a segment: stored in object storage, or being retried while it is down. */
            archived: boolean;
            content: string;
            content_sha256: string;
            content_truncated: boolean;
            /** @description The harness's event name, e.g. PostToolUse. */
            event: string;
            event_id: string;
            /** @enum {string} */
            kind: "message" | "tool_call" | "tool_result" | "compaction" | "checkpoint" | "annotation" | "lifecycle" | "recall";
            /** @description Hidden from the default timeline (include_lifecycle=true shows it). */
            lifecycle_only: boolean;
            /** Format: date-time */
            occurred_at: string;
            /** @enum {string|null} */
            outcome: "success" | "error" | null;
            payload_sha256: string;
            /** Format: date-time */
            received_at: string;
            /** @description Secrets redacted from the payload, by kind. */
            redactions: {
                [key: string]: number;
            };
            /** @enum {string} */
            role: "user" | "assistant" | "tool" | "system";
            score: number;
            sequence: number;
            tool_name: string | null;
            tool_use_id: string | null;
            truncations: number;
            workstream_id: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alive. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOAuthConsent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The authorization request. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthConsentRequest"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOAuthConsent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    decision: "allow" | "deny";
                };
            };
        };
        responses: {
            /** @description Where to send the browser. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        redirect_to: string;
                    };
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        database: "ok" | "unreachable";
                        /** @enum {string} */
                        migrations: "current" | "pending" | "unknown";
                        pending: string[];
                        /** @enum {string} */
                        status: "ready" | "not_ready";
                    };
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not ready: the database is unreachable or migrations are pending (a readiness body), or the database did not answer within 800 ms (a problem). */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        database: "ok" | "unreachable";
                        /** @enum {string} */
                        migrations: "current" | "pending" | "unknown";
                        pending: string[];
                        /** @enum {string} */
                        status: "ready" | "not_ready";
                    };
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getAdminAudit: {
        parameters: {
            query?: {
                /** @description Only this action. */
                action?: string;
                /** @description Only actions by this user id. */
                actor?: string;
                cursor?: string;
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description Only events at or after this RFC 3339 date-time. */
                since?: string;
                /** @description Only events before this RFC 3339 date-time (exclusive). */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of audit events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: components["schemas"]["AuditEvent"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getAdminMemberMemories: {
        parameters: {
            query?: {
                cursor?: string;
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
            };
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of metadata. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        memories: components["schemas"]["MemoryMetadata"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteAdminMemberMemories: {
        parameters: {
            query?: {
                /** @description `workstreams`: also delete their agent sessions and archives. */
                include?: "workstreams";
            };
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What was deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deleted: components["schemas"]["PurgeCounts"];
                    };
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postAdminOrg: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOrg"];
            };
        };
        responses: {
            /** @description The org, its owner and the owner key. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        api_key: components["schemas"]["IssuedApiKey"];
                        org: components["schemas"]["Org"];
                        user: components["schemas"]["User"];
                    };
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body did not arrive within BODY_READ_TIMEOUT_MS; the connection is closed. Nothing was done: the request may be sent again. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is larger than the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteAdminOrgById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What was deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deleted: {
                            api_keys: number;
                            contexts: number;
                            memories: number;
                            segments: number;
                            users: number;
                            workstreams: number;
                        };
                    };
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Your keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        api_keys: components["schemas"]["ApiKey"][];
                    };
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKey"];
            };
        };
        responses: {
            /** @description The new key, with its secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedApiKey"];
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body did not arrive within BODY_READ_TIMEOUT_MS; the connection is closed. Nothing was done: the request may be sent again. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is larger than the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteApiKeyById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postHook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Unique per delivery (1–128 visible ASCII characters); reuse it when retrying. */
                "idempotency-key"?: string;
                /** @description The session's project, so that recall's "last time in this project" finds the sessions of the same repository whatever the harness or checkout: the git remote `origin` without credentials (`github.com:acme/app.git`), else the repository's root, else the working directory; percent-encoded UTF-8 (a value without `%` may be sent as it is). The service normalises it (`github.com/acme/app`). Without it, the payload's working directory is the project. Only groups the caller's own sessions; a value it cannot read is ignored, never refused (docs/hooks.md#project-identity). */
                "memory-bank-project"?: string;
            };
            path: {
                harness: "claude-code" | "codex" | "opencode" | "generic" | "gemini-cli" | "cursor" | "cline" | "kimi" | "factory" | "kilo" | "copilot";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["HookPayload"];
            };
        };
        responses: {
            /** @description Recorded (or already recorded). */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HookReceipt"];
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body did not arrive within BODY_READ_TIMEOUT_MS; the connection is closed. Nothing was done: the request may be sent again. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is larger than the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postHookRecall: {
        parameters: {
            query?: never;
            header?: {
                /** @description The session's project, so that recall's "last time in this project" finds the sessions of the same repository whatever the harness or checkout: the git remote `origin` without credentials (`github.com:acme/app.git`), else the repository's root, else the working directory; percent-encoded UTF-8 (a value without `%` may be sent as it is). The service normalises it (`github.com/acme/app`). Without it, the payload's working directory is the project. Only groups the caller's own sessions; a value it cannot read is ignored, never refused (docs/hooks.md#project-identity). */
                "memory-bank-project"?: string;
            };
            path: {
                harness: "claude-code" | "codex" | "opencode" | "generic" | "gemini-cli" | "cursor" | "cline" | "kimi" | "factory" | "kilo" | "copilot";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["HookPayload"];
            };
        };
        responses: {
            /** @description The hook output. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecallHookOutput"];
                    "text/plain": string;
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body did not arrive within BODY_READ_TIMEOUT_MS; the connection is closed. Nothing was done: the request may be sent again. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is larger than the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postHooksBatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["HookBatch"];
            };
        };
        responses: {
            /** @description One result per event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        results: components["schemas"]["HookBatchResult"][];
                    };
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body did not arrive within BODY_READ_TIMEOUT_MS; the connection is closed. Nothing was done: the request may be sent again. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is larger than the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMemory: {
        parameters: {
            query?: {
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                /** @description `true`: also replaced memories (with `superseded_by`). */
                include_superseded?: "true" | "false";
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `user`: your private memories; `org`: your org's shared ones; `all` (default): both. */
                scope?: "user" | "org" | "all";
                /** @description Only memories saved this way. */
                source?: "api" | "mcp" | "hook";
                /** @description Only memories carrying this tag. */
                tag?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of memories. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        memories: components["schemas"]["Memory"][];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postMemory: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same body within 24 hours answers the first result again (`Idempotent-Replayed: true`); with another body, 422. 1–128 visible ASCII characters, e.g. a UUID. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateMemory"];
            };
        };
        responses: {
            /** @description A duplicate: the live memory this save equals, with the save's contexts and tags added. */
            200: {
                headers: {
                    /** @description A strong entity tag of this version of the resource; send it back in If-Match. */
                    ETag?: string;
                    /** @description `true` when this answer replays the first request sent with the same Idempotency-Key (nothing was written again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedMemory"];
                };
            };
            /** @description The saved memory (or, replayed, the memory the first request with this Idempotency-Key saved). */
            201: {
                headers: {
                    /** @description A strong entity tag of this version of the resource; send it back in If-Match. */
                    ETag?: string;
                    /** @description `true` when this answer replays the first request sent with the same Idempotency-Key (nothing was written again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedMemory"];
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body did not arrive within BODY_READ_TIMEOUT_MS; the connection is closed. Nothing was done: the request may be sent again. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request conflicts with what exists. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is larger than the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This Idempotency-Key was used by this caller, within 24 hours, for a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMemoryById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The memory. */
            200: {
                headers: {
                    /** @description A strong entity tag of this version of the resource; send it back in If-Match. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Memory"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteMemoryById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the resource is still this version: an ETag from an earlier answer (strong comparison; a weak `W/` tag never matches), a list of them, or `*`. Otherwise 412. */
                "if-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description If-Match names a version of the resource that is not the current one (re-read it: ETag). */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    patchMemoryById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the resource is still this version: an ETag from an earlier answer (strong comparison; a weak `W/` tag never matches), a list of them, or `*`. Otherwise 412. */
                "if-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateMemory"];
            };
        };
        responses: {
            /** @description The updated memory. */
            200: {
                headers: {
                    /** @description A strong entity tag of this version of the resource; send it back in If-Match. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedMemory"];
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body did not arrive within BODY_READ_TIMEOUT_MS; the connection is closed. Nothing was done: the request may be sent again. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description If-Match names a version of the resource that is not the current one (re-read it: ETag). */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is larger than the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMemoryHistory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The chain, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        memories: components["schemas"]["Memory"][];
                    };
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMemoryExport: {
        parameters: {
            query?: {
                /** @description `user`: your private memories; `org`: your org's shared ones; `all` (default): both. */
                scope?: "user" | "org" | "all";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description NDJSON, streamed: one `Memory` per line. */
            200: {
                headers: {
                    /** @description `attachment; filename="memories.ndjson"` */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postMemoryImport: {
        parameters: {
            query?: {
                /** @description Store every line with this scope (`org`: admins and owners only); default each line's own (`user` when it has none). */
                scope?: "user" | "org";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-ndjson": string;
            };
        };
        responses: {
            /** @description What became of each line. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryImportSummary"];
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body did not arrive within BODY_READ_TIMEOUT_MS; the connection is closed. Nothing was done: the request may be sent again. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is larger than the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMemorySearch: {
        parameters: {
            query: {
                /** @description `true`: also replaced memories (with `superseded_by`). */
                include_superseded?: "true" | "false";
                /** @description At most this many results, 1–50 (default 20). */
                limit?: number;
                /** @description `lexical`: words only (default `hybrid`: words and meaning). */
                mode?: "hybrid" | "lexical";
                /** @description What to look for (1–512 characters). Words match in any form (rotating ~ rotate) and inside identifiers (invoice ~ createInvoice); "quoted phrases" rank first; the last word and word* match as prefixes. */
                q: string;
                /** @description `user`: your private memories; `org`: your org's shared ones; `all` (default): both. */
                scope?: "user" | "org" | "all";
                /** @description `recent`: latest changed first; default `relevance`. */
                sort?: "relevance" | "recent";
                /** @description Only memories saved this way. */
                source?: "api" | "mcp" | "hook";
                /** @description Only memories carrying this tag. */
                tag?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matching memories, best first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The query with its misspelt words replaced by the words of yours they were also searched as (`pgbouncr` → `pgbouncer`); null when none was. */
                        corrected_query: string | null;
                        results: components["schemas"]["MemorySearchResult"][];
                    };
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOAuthGrants: {
        parameters: {
            query?: {
                /** @description Admins: every member's connected apps. */
                all?: "true" | "false";
                /** @description Admins: this member's connected apps. */
                user_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connected apps. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        grants: components["schemas"]["OAuthGrant"][];
                    };
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteOAuthGrantById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOrg: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The org. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Org"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    patchOrg: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOrg"];
            };
        };
        responses: {
            /** @description The org with its settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Org"];
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body did not arrive within BODY_READ_TIMEOUT_MS; the connection is closed. Nothing was done: the request may be sent again. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is larger than the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOrgMembers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The members. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        members: components["schemas"]["User"][];
                    };
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOrgMember: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddMember"];
            };
        };
        responses: {
            /** @description The new member and their first key. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        api_key: components["schemas"]["IssuedApiKey"];
                        user: components["schemas"]["User"];
                    };
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body did not arrive within BODY_READ_TIMEOUT_MS; the connection is closed. Nothing was done: the request may be sent again. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request conflicts with what exists. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is larger than the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteOrgMemberById: {
        parameters: {
            query?: {
                /** @description `true`: keep the member's memories and workstreams (purge them later if needed). */
                keep_data?: string;
            };
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deleted: components["schemas"]["PurgeCounts"];
                        keys_revoked: number;
                        user: components["schemas"]["User"];
                    };
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request conflicts with what exists. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    patchOrgMemberById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangeMemberRole"];
            };
        };
        responses: {
            /** @description The member with their new role. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: components["schemas"]["User"];
                    };
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body did not arrive within BODY_READ_TIMEOUT_MS; the connection is closed. Nothing was done: the request may be sent again. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request conflicts with what exists. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is larger than the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postRecall: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecallRequest"];
            };
        };
        responses: {
            /** @description The context to inject (possibly empty) and what it holds. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Recall"];
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body did not arrive within BODY_READ_TIMEOUT_MS; the connection is closed. Nothing was done: the request may be sent again. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is larger than the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWorkstreams: {
        parameters: {
            query?: {
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                /** @description Only sessions of this harness. */
                harness?: "claude-code" | "codex" | "opencode" | "generic" | "gemini-cli" | "cursor" | "cline" | "kimi" | "factory" | "kilo" | "copilot";
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of workstreams. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        next_cursor: string | null;
                        workstreams: components["schemas"]["Workstream"][];
                    };
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWorkstreamById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workstream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workstream"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteWorkstreamById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWorkstreamActions: {
        parameters: {
            query?: {
                /** @description `next_after` of the previous page. */
                after?: number | null;
                /** @description Page size, 1–500 (default 20). */
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of actions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        actions: components["schemas"]["ToolAction"][];
                        next_after: number | null;
                    };
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWorkstreamEvents: {
        parameters: {
            query?: {
                /** @description Sequence cursor: events after it in the chosen order (`next_after` of the previous page). */
                after?: number | null;
                /** @description Only this harness event name, e.g. PostToolUseFailure. */
                event?: string;
                /** @description Include lifecycle-only events (SessionStart, PreToolUse, Stop…). Default false. */
                include_lifecycle?: boolean;
                /** @description Only these kinds (comma-separated): message, tool_call, tool_result, compaction, checkpoint, annotation, lifecycle, recall. */
                kind?: string;
                /** @description Page size, 1–500 (default 20). */
                limit?: number;
                /** @description By sequence (default asc: oldest first). */
                order?: "asc" | "desc";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: components["schemas"]["WorkstreamEvent"][];
                        /** @description Pass as `after` for the next page; null on the last page. */
                        next_after: number | null;
                    };
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postWorkstreamEventRemember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                sequence: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RememberEvent"];
            };
        };
        responses: {
            /** @description The memory. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedMemory"];
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body did not arrive within BODY_READ_TIMEOUT_MS; the connection is closed. Nothing was done: the request may be sent again. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is larger than the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body is not JSON. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWorkstreamRaw: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSONL, streamed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource for this caller (missing, malformed and foreign ids look the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWorkstreamsSearch: {
        parameters: {
            query: {
                /** @description Only these kinds (comma-separated): message, tool_call, tool_result, compaction, checkpoint, annotation, lifecycle, recall. */
                kind?: string;
                /** @description At most this many results, 1–50 (default 20). */
                limit?: number;
                /** @description What to look for, 1–512 characters. */
                q: string;
                /** @description Only within this workstream. */
                workstream_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matching events, best first (content cut at 4000 characters; read the event for all of it). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        results: components["schemas"]["WorkstreamSearchResult"][];
                    };
                };
            };
            /** @description The request is malformed or a field is out of its limits (`errors` names the fields). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The credentials are valid but lack the scope or role this operation needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused. */
            429: {
                headers: {
                    /** @description The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`). */
                    RateLimit?: string;
                    /** @description Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request line and headers are larger than the server accepts (16 KiB); the connection is closed. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
