import * as schema from '@memory-bank/db';
import { is } from 'drizzle-orm';
import { getTableConfig, MySqlTable } from 'drizzle-orm/mysql-core';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import nodeSqlParser from 'node-sql-parser';
import { REPO_ROOT } from './process';
import { statementShape } from './sql-recorder.mjs';

/*
 * The shard-readiness rule (docs/scaling.md#the-sharding-key), checked on SQL text: a
 * statement that reads or writes a tenant table names one org — each tenant table it
 * touches has `org_id = <value>` among the AND-ed conditions of its WHERE or JOIN … ON
 * (directly, or through `x.org_id = y.org_id` to a table that has one), and an INSERT
 * into a tenant table sets `org_id`. That is what lets Vitess route it to one shard with
 * the org_id hash vindex of deploy/vitess/vschema.json. Cross-org statements are allowed
 * only by an entry of ALLOWED, each with its reason.
 */

/** The column that names the org, for every sharded table of the schema (all but UNSHARDED_TABLES): `orgs` is keyed by its id, every other table carries org_id. */
export const TENANT_KEY: ReadonlyMap<string, string> = new Map(
  Object.values(schema)
    .filter((value) => is(value, MySqlTable))
    .filter((table) => !schema.UNSHARDED_TABLES.includes(getTableConfig(table as MySqlTable).name))
    .map((table) => {
      const config = getTableConfig(table);
      const key = config.name === 'orgs' ? 'id' : config.columns.find((column) => column.name === 'org_id')?.name;
      if (!key) throw new Error(`table ${config.name} has no org_id column: add one (docs/scaling.md#the-sharding-key)`);
      return [config.name, key] as const;
    }),
);

export interface AllowedStatement {
  /** Who sends these statements. */
  by: string;
  reason: string;
  /** Matched against the statement's shape (literals as `?`, leading comments removed), case-insensitively. */
  patterns: RegExp[];
}

/** Every statement of the migrations in drizzle/ (their data back-fills run once, over every org). */
const MIGRATION_STATEMENTS = new Set(
  readdirSync(join(REPO_ROOT, 'drizzle'))
    .filter((file) => file.endsWith('.sql'))
    .flatMap((file) => readFileSync(join(REPO_ROOT, 'drizzle', file), 'utf8').split('--> statement-breakpoint'))
    .map((statement) => withoutLeadingComments(statementShape(statement))),
);

/**
 * The reviewed exceptions: statements that cross orgs, or reach a row by a globally unique
 * id without naming its org, on purpose. None serves a request for one org's data, except
 * the two look-ups that find out which org a request is for. Under Vitess the ones without
 * a vindex column are scatter queries: correct, sent to every shard (docs/scaling.md).
 */
export const ALLOWED: readonly AllowedStatement[] = [
  {
    by: 'migrations, doctor, session settings',
    reason: 'DDL and administration, not data access; Vitess applies DDL to every shard',
    patterns: [/^(?:create|alter|drop|rename|truncate|optimize|analyze|show|set|lock|unlock|begin|commit|rollback)\b/i],
  },
  {
    by: 'migrations (drizzle/*.sql)',
    reason: 'one-off data back-fills over every org, run once by the migrator (exact statements of drizzle/*.sql)',
    patterns: [],
  },
  {
    by: 'authentication (system/credentials.ts)',
    reason:
      'a request names its org only through its API key or its OIDC identity, so these are looked up before any org is known; ' +
      'under Vitess they route through the consistent_lookup_unique vindexes of deploy/vitess/vschema.json (one shard each)',
    patterns: [
      /\bfrom `api_keys` inner join `users` on .* where \(`api_keys`\.`key_hash` = \?/i,
      /\bfrom `users`(?: inner join `orgs` on `orgs`\.`id` = `users`\.`org_id`)? where \(`users`\.`oidc_issuer` = \? and `users`\.`oidc_subject` = \?\)$/i,
    ],
  },
  {
    by: 'the MCP authorization server (system/oauth.ts)',
    reason:
      'an OAuth account is a user id: storing a token or grant records the account\'s org beside it, and a token names its holder by user id ' +
      'before any org is known (like an API key); under Vitess a scatter read of one row by its globally unique id',
    patterns: [
      /^select `org_id` from `users` where `users`\.`id` = \?$/i,
      /^select `users`\.`org_id`, `users`\.`id`, `users`\.`role`, `users`\.`email`, `orgs`\.`redact_memory_secrets`, `orgs`\.`dedupe_memories` from `users` inner join `orgs` on `orgs`\.`id` = `users`\.`org_id` where \(`users`\.`id` = \? and `users`\.`removed_at` is null\)$/i,
    ],
  },
  {
    by: 'the archive jobs: sealer, uploader and deleter (system/archive.ts), in the background',
    reason:
      'they sweep every org for due work (pending workstreams, unstored segments, queued deletions), then handle one workstream or object ' +
      'at a time by its globally unique id or object key (orgs/<org id>/…)',
    patterns: [
      /^select `id` from `workstreams` where \(?`workstreams`\.`pending_since` is not null/i,
      /^select (?:(?!`org_id` = ).)* from `workstreams` where `workstreams`\.`id` = \?(?: for update)?$/i,
      /^update `workstreams` set `archived_through` = \?.* where `workstreams`\.`id` = \?$/i,
      /^select [^]* from `workstream_events` where \(`workstream_events`\.`workstream_id` = \? and `workstream_events`\.`sequence` (?:> \?|between \? and \?)[^]*\)(?: order by [^]*)?$/i,
      /^update `workstream_events` set `(?:segment_key|payload)` = \? where \(`workstream_events`\.`workstream_id` = \? and `workstream_events`\.`sequence` between \? and \?/i,
      /^(?:select [^]*? from|update|delete from) `archive_(?:segments|deletions)`(?: (?:set|where|order)\b|$)/i,
    ],
  },
  {
    by: 'operator tools (system/operator.ts, system/rebuild.ts, system/doctor.ts, the CLI) with the operator token, and the /metrics scrape',
    reason:
      'an operator acts on any org: finds a user or key by id to revoke it, rebuilds the ledger from the archive, and doctor and the ' +
      'archive gauges of /metrics (docs/observability.md) count backlogs and orphans across every org',
    patterns: [
      /^select (?:(?!`org_id` = ).)* from `users` where `users`\.`id` = \?$/i,
      /^select `users`\.`org_id`, .* from `api_keys` inner join `users` on `users`\.`id` = `api_keys`\.`user_id` where `api_keys`\.`id` = \?$/i,
      /^update `workstreams` set [^]*= GREATEST\([^]* where `workstreams`\.`id` = \?$/i,
      /^select `sequence`, `event_id`, `payload_sha256` from `workstream_events` where \(`workstream_events`\.`workstream_id` = \? and `workstream_events`\.`sequence` BETWEEN \? AND \?\)$/i,
      /^select (?:count\(\*\)|`id`) from `(?:workstreams|orgs)` where (?:`workstreams`\.`pending_since` is not null|`(?:workstreams|orgs)`\.`id` in \(\?\))$/i,
      /^select count\(\*\) from `workstream_events` left join `archive_segments` on /i,
      /^select COALESCE\(SUM\(`pending_count`\), \?\), (?:COALESCE\(SUM\(`pending_bytes`\), \?\), )?min\(`pending_since`\) from `workstreams` where `workstreams`\.`pending_since` is not null$/i,
      // Search statistics against the memories of every owner (system/statistics.ts: doctor, `stats rebuild`).
      /^SELECT `memory`\.`org_id` AS org_id, CASE WHEN [^]* FROM `memory` WHERE `memory`\.`search_version` = \? GROUP BY \?, \?$/i,
      /^select `org_id`, `owner_id`, `docs` from `memory_term_stats` where `memory_term_stats`\.`term` = \?$/i,
      /^(?:select count\(\*\) from|delete from) `memory_term_stats` where `memory_term_stats`\.`docs` <= \?$/i,
      /^SELECT DISTINCT org_id, owner_id FROM \(\s*SELECT `memory`\.`org_id` AS org_id, [^]* FROM `memory` WHERE \? = \?\s+UNION SELECT [^]* FROM `memory_term_stats` WHERE \? = \?\s+\) AS owners ORDER BY org_id, owner_id$/i,
    ],
  },
  {
    by: 'the maintenance loop (services/maintenance.ts → system/idempotency.ts), in the background',
    reason:
      'finds which orgs hold expired Idempotency-Keys (one grouped read over the (org_id, created_at) index); each org\'s keys are then ' +
      'deleted by an org-scoped statement',
    patterns: [/^select `org_id` from `idempotency_keys` group by `idempotency_keys`\.`org_id` having min\(`idempotency_keys`\.`created_at`\) < \? order by min\(`idempotency_keys`\.`created_at`\) limit \?$/i],
  },
  {
    by: 'the maintenance loop\'s expiry and retention (services/maintenance.ts → system/maintenance.ts), in the background, and doctor and the /metrics gauge of what is due',
    reason:
      'finds the expired memories of every org (a range of the memory_expiry index, oldest first, bounded) and counts them, and reads which orgs ' +
      'have a retention setting (the orgs table); each org\'s memories, events and segments are then locked and deleted, or counted, by org-scoped statements',
    patterns: [
      /^select `id`, `org_id`, `user_id`, `scope` from `memory` where \(`memory`\.`expires_at` is not null and `memory`\.`expires_at` <= \?\) order by `memory`\.`expires_at` asc limit \?$/i,
      /^select count\(\*\) from `memory` where \(`memory`\.`expires_at` is not null and `memory`\.`expires_at` <= \?\)$/i,
      /^select `id`, `memory_retention_days`, `workstream_retention_days` from `orgs` where \(`orgs`\.`memory_retention_days` is not null or `orgs`\.`workstream_retention_days` is not null\) order by `orgs`\.`id` asc$/i,
    ],
  },
  {
    by: 'the content key backfill (system/content-keys.ts) and the embedding backfill (system/memory-vectors.ts), in the background',
    reason: 'lists the orgs, then keys or embeds each org\'s memories (those without a content key, or without a current vector) with org-scoped statements',
    patterns: [/^select `id` from `orgs`$/i],
  },
  {
    by: 'the search re-index (search/reindex.ts), in the background at start-up',
    reason: 'rewrites the search terms of memories saved in an older format, in every org, in id order',
    patterns: [/\bfrom `memory` where (?:\(`memory`\.`id` > \? and )?`memory`\.`search_version` <> \?/i, /^update `memory` set `search_terms` = \?, `search_version` = \? where `memory`\.`id` = \?$/i],
  },
  {
    by: 'tests and the benchmark harness (bench.test.ts), checking what is in the database or comparing query plans',
    reason:
      'hand-written statements that never name a tenant table back-quoted: the service never sends one (drizzle quotes every table it names; ' +
      'sql-tenancy.test.ts checks the sources hold no hand-written statement on a tenant table)',
    patterns: [new RegExp(`^(?:(?!\`(?:${[...TENANT_KEY.keys()].join('|')})\`).)*$`, 'is')],
  },
];

function withoutLeadingComments(statement: string): string {
  return statement.replace(/^(?:\s+|--[^\n]*(?:\n|$)|\/\*[^]*?\*\/)*/, '').replace(/;?\s*$/, '');
}

/** The entry of ALLOWED that covers `statement`, if any. */
export function allowanceOf(statement: string): AllowedStatement | undefined {
  const text = withoutLeadingComments(statement);
  if (MIGRATION_STATEMENTS.has(text)) return ALLOWED[1];
  return ALLOWED.find((allowed) => allowed.patterns.some((pattern) => pattern.test(text)));
}

export interface Violation {
  statement: string;
  problem: string;
}

type Node = Record<string, unknown>;
interface Scope {
  /** Alias (or table name) → table name, for the tables of this statement. */
  tables: Map<string, string>;
  outer?: Scope;
}

const parser = new nodeSqlParser.Parser();
const tenantTablePattern = new RegExp(`\\b(?:${[...TENANT_KEY.keys()].join('|')})\\b`, 'i');
const verdicts = new Map<string, Violation | null>();

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;
const nameOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : isNode(value) && typeof value.value === 'string' ? value.value : undefined;

/** Flattens `a AND (b AND c)` into [a, b, c]; anything under OR or NOT stays one condition. */
function conjuncts(expr: unknown): Node[] {
  if (!isNode(expr)) return [];
  if (expr.type === 'binary_expr' && String(expr.operator).toUpperCase() === 'AND') return [...conjuncts(expr.left), ...conjuncts(expr.right)];
  return [expr];
}

const isValue = (expr: unknown): boolean =>
  isNode(expr) && ((expr.type === 'origin' && expr.value === '?') || ['number', 'single_quote_string', 'string', 'param', 'var'].includes(String(expr.type)));

/** The scope alias a column reference belongs to, if it can be told. */
function aliasOf(column: Node, scope: Scope): { alias: string; scope: Scope } | undefined {
  const table = nameOf(column.table);
  for (let s: Scope | undefined = scope; s; s = s.outer) {
    if (table !== undefined && s.tables.has(table)) return { alias: table, scope: s };
    if (table === undefined && s === scope && s.tables.size === 1) return { alias: [...s.tables.keys()][0]!, scope: s };
  }
  return undefined;
}

/** The org key columns of a scope pinned to one value, given the pinned keys of the enclosing scopes. */
function pinnedAliases(conditions: Node[], scope: Scope, outerPinned: Set<string>): Set<string> {
  const keyOf = (expr: unknown): string | undefined => {
    if (!isNode(expr) || expr.type !== 'column_ref') return undefined;
    const owner = aliasOf(expr, scope);
    if (!owner) return undefined;
    const table = owner.scope.tables.get(owner.alias)!;
    if (TENANT_KEY.get(table) !== nameOf(expr.column)) return undefined;
    return owner.scope === scope ? owner.alias : `outer:${owner.alias}`;
  };
  const pinned = new Set([...outerPinned].map((alias) => `outer:${alias}`));
  const links: [string, string][] = [];
  for (const condition of conditions) {
    if (condition.type !== 'binary_expr' || condition.operator !== '=') continue;
    const left = keyOf(condition.left);
    const right = keyOf(condition.right);
    if (left && isValue(condition.right)) pinned.add(left);
    else if (right && isValue(condition.left)) pinned.add(right);
    else if (left && right) links.push([left, right]);
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const [a, b] of links) {
      if (pinned.has(a) !== pinned.has(b)) {
        pinned.add(a);
        pinned.add(b);
        changed = true;
      }
    }
  }
  return pinned;
}

/** Checks one statement node and the statements nested in it. */
function checkNode(node: unknown, outer: Scope | undefined, outerPinned: Set<string>, problems: string[]): void {
  if (Array.isArray(node)) {
    for (const item of node) checkNode(item, outer, outerPinned, problems);
    return;
  }
  if (!isNode(node)) return;
  const type = node.type;
  if (type === 'insert' || type === 'replace') {
    for (const target of (node.table as Node[] | undefined) ?? []) {
      const table = nameOf(target.table);
      const key = table && TENANT_KEY.get(table);
      const columns = ((node.columns as unknown[] | null) ?? []).map(nameOf);
      if (key && !columns.includes(key)) problems.push(`INSERT into ${table} does not set ${key}`);
    }
    for (const [field, value] of Object.entries(node)) if (field !== 'table') checkNode(value, outer, outerPinned, problems);
    return;
  }
  if (type === 'select' || type === 'update' || type === 'delete') {
    const scope: Scope = { tables: new Map(), outer };
    const sources = [...((node.from as Node[] | null) ?? []), ...(type === 'update' ? ((node.table as Node[] | null) ?? []) : [])];
    const conditions = conjuncts(node.where);
    for (const source of sources) {
      const table = nameOf(source.table);
      if (table) scope.tables.set(nameOf(source.as) ?? table, table);
      conditions.push(...conjuncts(source.on));
    }
    const pinned = pinnedAliases(conditions, scope, outerPinned);
    for (const [alias, table] of scope.tables) {
      if (TENANT_KEY.has(table) && !pinned.has(alias)) problems.push(`${type.toUpperCase()} on ${table} without ${TENANT_KEY.get(table)} = <value>`);
    }
    const inner = new Set([...pinned].filter((alias) => !alias.startsWith('outer:')));
    for (const [field, value] of Object.entries(node)) checkNode(value, field === 'with' ? outer : scope, field === 'with' ? outerPinned : inner, problems);
    return;
  }
  if (isNode(node.ast)) {
    checkNode(node.ast, outer, outerPinned, problems);
    return;
  }
  for (const value of Object.values(node)) checkNode(value, outer, outerPinned, problems);
}

/** Why `statement` (a statement shape) breaks the rule, or null when it keeps it or is allowed. Cached per shape. */
export function checkStatement(statement: string): Violation | null {
  const cached = verdicts.get(statement);
  if (cached !== undefined) return cached;
  let verdict: Violation | null = null;
  const text = withoutLeadingComments(statement);
  if (tenantTablePattern.test(text) && !allowanceOf(text)) {
    const problems: string[] = [];
    try {
      // The parser knows no LIMIT on DELETE and UPDATE, nor index hints; neither changes which org a statement names.
      const unhinted = text.replace(/\s+(?:force|use|ignore) index \([^)]*\)/gi, '');
      const parsable = /^(?:delete|update)\b/i.test(unhinted) ? unhinted.replace(/\s+limit \?$/i, '') : unhinted;
      checkNode(parser.astify(parsable, { database: 'MariaDB' }), undefined, new Set(), problems);
    } catch (error) {
      problems.push(`could not be parsed (${(error as Error).message.slice(0, 120)})`);
    }
    if (problems.length > 0) verdict = { statement: text, problem: [...new Set(problems)].join('; ') };
  }
  verdicts.set(statement, verdict);
  return verdict;
}
