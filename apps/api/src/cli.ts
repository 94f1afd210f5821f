import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { hasErrorCode, MEMORY_SCOPES } from '@memory-bank/db';
import { describeDatabase, ensureDatabase, listOAuthKeys, migrateDatabase, migrationStatus, openDatabase, recountOwnerStatistics, statisticsOwners, type DatabaseHandle } from '@memory-bank/db/system';
import { addOAuthKeys, retireOAuthKeys } from './oauth/keys';
import type { Logger } from 'pino';
import { ulid } from 'ulid';
import { z, type ZodType } from 'zod';
import { SERVICE_INFO, createApp, type MemoryBankApp } from './app';
import { runDoctor } from './archive/doctor';
import { rebuildLedger } from './archive/rebuild';
import { progressReporter } from './cli/progress';
import { exportTo, importFile } from './cli/transfer';
import { ConfigError, loadConfig, type Config } from './config';
import { AppError } from './errors';
import { createLogger } from './logger';
import { CreateApiKeyBody } from './routes/api-keys/create';
import { toApiKeyResponse, toIssuedApiKeyResponse } from './routes/api-keys/schemas';
import { CreateOrgBody } from './routes/operator/create-org';
import { AddMemberBody } from './routes/org/add-member';
import { toImportSummaryResponse } from './routes/memory/import';
import { ScopeFilterParam } from './routes/memory/schemas';
import { toOrgResponse, toUserResponse } from './routes/org/schemas';
import { systemClock } from './clock';

/** One line per command for `pnpm cli --help`; each command's own help adds its detail. */
const INTRO = `Memory Bank operator CLI: JSON results on stdout, progress and errors on stderr.
Reads DATABASE_URL (and ARCHIVE_URL, S3_*) like the server (see README.md).
\`pnpm cli <command> --help\` explains one command; \`pnpm cli --version\` prints the version.`;

class UsageError extends Error {}

type Options = Record<string, string | undefined>;

/** The audit trail's request id for operator actions taken from this CLI run. */
const requestId = `cli-${ulid()}`;

function required(options: Options, name: string): string {
  const value = options[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

/** Checks CLI input with the same schema as the HTTP route, so limits are identical. */
function validated<T>(schema: ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new UsageError(`Invalid input: ${issues.join('; ')}`);
}

function scopesOption(value: string | undefined): string[] | undefined {
  return value?.split(',').map((scope) => scope.trim());
}

const toStderr = (line: string) => process.stderr.write(`${line}\n`);

/** `--user` of `--org` as the principal the memory services act for. */
const actingUser = (services: MemoryBankApp['services'], options: Options) =>
  services.operator.actAs(required(options, 'org'), required(options, 'user'), requestId);

interface CommandContext {
  config: Config;
  database: DatabaseHandle;
  logger: Logger;
  /** The app (services, archive), built on first use: `db …` commands do without. */
  app(): MemoryBankApp;
}

/** A command's JSON output, and its exit code when not 0. */
type Command = (context: CommandContext, options: Options) => Promise<unknown | { output: unknown; exitCode: number }>;

interface CommandSpec {
  /** Arguments after `pnpm cli <name>`. */
  usage: string;
  summary: string;
  /** The one positional argument after the command (a file), stored as the option `name`. */
  operand?: { name: string; required: boolean };
  /** More than the summary, for `--help`. */
  detail?: string;
  run: Command;
}

const COMMANDS: Record<string, CommandSpec> = {
  'orgs create': {
    usage: '--name <name> --owner-email <email>',
    summary: 'a new org, its owner and the owner\'s first API key (printed once)',
    run: async ({ app }, options) => {
      const body = validated(CreateOrgBody, { name: required(options, 'name'), owner: { email: required(options, 'owner-email') } });
      const created = await app().services.operator.provision({ name: body.name, ownerEmail: body.owner.email }, requestId);
      return { org: toOrgResponse(created.org), user: toUserResponse(created.user), api_key: toIssuedApiKeyResponse(created.apiKey) };
    },
  },
  'orgs delete': {
    usage: '--org <org_id>',
    summary: 'deletes an org and everything of it, its archived objects included',
    detail:
      'Deletes the rows in one transaction, then the archived objects. Progress on stderr about once a second: objects handled of all, deleted, failed (left queued, retried by the server), objects per second. The output counts the rows deleted.',
    run: async ({ app }, options) => {
      const progress = progressReporter('orgs delete', { unit: 'objects', write: toStderr });
      const deleted = await app().services.operator.deleteOrg(required(options, 'org'), requestId, ({ done, total, deleted, failed }) =>
        progress.update({ done, total, also: { deleted, failed } }),
      );
      progress.finish();
      return { deleted };
    },
  },
  'members add': {
    usage: '--org <org_id> --email <email> [--role member|admin|owner]',
    summary: 'a user in an org and their first API key (printed once)',
    run: async ({ app }, options) => {
      const body = validated(AddMemberBody, { email: required(options, 'email'), role: options.role ?? 'member' });
      const added = await app().services.operator.addMember(required(options, 'org'), body, requestId);
      return { user: toUserResponse(added.user), api_key: toIssuedApiKeyResponse(added.apiKey) };
    },
  },
  'keys create': {
    usage: '--user <usr_id> --name <name> [--scopes memory:read,memory:write]',
    summary: 'another API key for a user (printed once)',
    run: async ({ app }, options) =>
      toIssuedApiKeyResponse(
        await app().services.operator.issueKey(
          required(options, 'user'),
          validated(CreateApiKeyBody, { name: required(options, 'name'), scopes: scopesOption(options.scopes) }),
          requestId,
        ),
      ),
  },
  'keys list': {
    usage: '--user <usr_id>',
    summary: 'a user\'s API keys (no secrets)',
    run: async ({ app }, options) => ({ api_keys: (await app().services.operator.listKeys(required(options, 'user'))).map(toApiKeyResponse) }),
  },
  'keys revoke': {
    usage: '--key <key_id>',
    summary: 'revokes an API key at once',
    run: async ({ app }, options) => {
      await app().services.operator.revokeKey(required(options, 'key'), requestId);
      return { revoked: options.key };
    },
  },
  'memory import': {
    usage: '--org <org_id> --user <usr_id|email> [--scope user|org] <file.ndjson>',
    operand: { name: 'file', required: true },
    summary: "imports an NDJSON file as the user's memories, as POST /v1/memory/import does",
    detail:
      "Same lines (export lines, save bodies, mem0 or supermemory objects), limits, redaction, quota and skipping of lines imported within 24 h as the API; no size or time limit. --scope stores every line with that scope (org: the user must be an admin or owner). Progress on stderr about once a second (lines read, imported, skipped, failed, lines per second), each refused line by number; the summary as JSON on stdout. Ctrl-C stops after the current line (complete: false). Exit 1 when a line failed or the import stopped early. Audited as memory.import by the operator.",
    run: async ({ app }, options) => {
      const { scope } = validated(z.object({ scope: z.enum(MEMORY_SCOPES).optional() }), { scope: options.scope });
      const { services } = app();
      const principal = await actingUser(services, options);
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      const summary = await importFile(services.memoryTransfer, principal, required(options, 'file'), {
        ...(scope ? { scope } : {}),
        signal: stop.signal,
        write: toStderr,
      });
      return { output: toImportSummaryResponse(summary), exitCode: summary.failed > 0 || !summary.complete ? 1 : 0 };
    },
  },
  'memory export': {
    usage: '--org <org_id> --user <usr_id|email> [--scope user|org|all] [file.ndjson]',
    operand: { name: 'file', required: false },
    summary: 'what the user can read as NDJSON, as GET /v1/memory/export does',
    detail:
      'One memory per line, newest first, to the file (then {"exported", "file"} on stdout) or to stdout (use `pnpm --silent cli` so only the lines are printed). --scope: user (their private memories), org (the org\'s shared ones), all (default). Progress on stderr. Audited as memory.export by the operator.',
    run: async ({ app }, options) => {
      const { scope: filter } = validated(z.object({ scope: ScopeFilterParam }), { scope: options.scope });
      const { services } = app();
      const principal = await actingUser(services, options);
      if (!options.file) {
        await exportTo(services.memoryTransfer, principal, filter, process.stdout, { write: toStderr });
        return { output: undefined, exitCode: 0 };
      }
      const out = createWriteStream(options.file, { flags: 'wx' });
      await once(out, 'open');
      const exported = await exportTo(services.memoryTransfer, principal, filter, out, { write: toStderr });
      await new Promise<void>((resolve, reject) => out.on('error', reject).end(resolve));
      return { exported, file: options.file };
    },
  },
  'ledger rebuild': {
    usage: '[--org <org_id>] [--workstream <ws_id>]',
    summary: 'rebuilds the hook ledger from the archived segments',
    detail: 'Reads every stored segment under the org or workstream (all of them by default), checks it and writes its events back. Progress on stderr about once a second: segments done of all, events, segments per second.',
    run: async ({ app, database, logger }, options) => {
      const progress = progressReporter('ledger rebuild', { unit: 'segments', write: toStderr });
      const report = await rebuildLedger(
        { db: database.db, store: app().store, logger },
        { ...(options.org ? { orgId: options.org } : {}), ...(options.workstream ? { workstreamId: options.workstream } : {}) },
        (sofar, total) => progress.update({ done: sofar.segments + sofar.skipped.length, total, also: { events: sofar.events } }),
      );
      progress.finish();
      return report;
    },
  },
  'stats rebuild': {
    usage: '[--org <org_id>] [--owner <usr_id|org_id>]',
    summary: "recounts search statistics from the memories (every owner's, an org's or one owner's)",
    detail:
      "Ranking reads each owner's statistics (memory_term_stats); the service keeps them in step with every save, change and delete, and `pnpm cli doctor` reports an owner whose count is off. This counts them again from the memories and writes what differs, one owner at a time, each in a transaction that holds that owner's saves back while it counts. Progress on stderr about once a second: owners done of all, memories, rows changed. The output sums them up.",
    run: async ({ database }, options) => {
      const owners = await statisticsOwners(database.db, { ...(options.org ? { orgId: options.org } : {}), ...(options.owner ? { ownerId: options.owner } : {}) });
      const progress = progressReporter('stats rebuild', { unit: 'owners', write: toStderr });
      const totals = { owners: owners.length, memories: 0, rows_changed: 0, owners_changed: 0 };
      for (const [i, owner] of owners.entries()) {
        const result = await recountOwnerStatistics(database.db, owner);
        totals.memories += result.memories;
        totals.rows_changed += result.changed;
        if (result.changed > 0) totals.owners_changed += 1;
        progress.update({ done: i + 1, total: owners.length, also: { memories: totals.memories, 'rows changed': totals.rows_changed } });
      }
      progress.finish();
      return totals;
    },
  },
  'oauth rotate-keys': {
    usage: '[--retire]',
    summary: "adds a new signing key and cookie secret for the MCP authorization server (--retire: deletes all but each kind's newest)",
    detail:
      'The newest key signs (ID tokens, cookies); every stored key still verifies. A running replica reads the keys when it first serves OAuth, so restart the replicas after adding one, and retire the old ones once every replica runs with the new one and a sign-in session lifetime has passed (docs/operations.md#mcp-authorization-server). Access tokens are opaque, looked up in the database: no key change affects them.',
    run: async ({ database }, options) => {
      if (options.retire === 'true') return { retired: await retireOAuthKeys(database.db) };
      await addOAuthKeys(database.db, systemClock);
      return { keys: (await listOAuthKeys(database.db)).map((key) => ({ id: key.id, kind: key.kind, created_at: key.createdAt.toISOString() })) };
    },
  },
  doctor: {
    usage: '[--repair]',
    summary: 'checks migrations, FULLTEXT indexes, search statistics, archive backlog, segment integrity, orphans, expiry and retention, embeddings; exit 1 if unhealthy',
    detail: 'The output names what it checked: the database (host:port/name) and the archive (driver and bucket/prefix or directory). --repair fixes what it can.',
    run: async ({ app, database, logger, config }, options) => {
      const built = app();
      const report = await runDoctor(
        { db: database.db, store: built.store, archiver: built.archiver, maintenance: built.maintenance, embeddings: built.embeddings, clock: systemClock, logger, migrate: () => migrateDatabase(database.pool) },
        { repair: options.repair === 'true' },
      );
      const checked = { database: describeDatabase(config.DATABASE_URL), archive: built.store.description };
      return { output: { checked, ...report }, exitCode: report.ok ? 0 : 1 };
    },
  },
  'db migrate': {
    usage: '',
    summary: 'creates the database if missing and applies pending migrations',
    detail: 'Prints whether it created the database, the migrations it applied, and the status after.',
    run: async ({ database, config }) => {
      const { created } = await ensureDatabase(config.DATABASE_URL);
      const { applied } = await migrateDatabase(database.pool);
      return { database: describeDatabase(config.DATABASE_URL), created, migrations_applied: applied, ...(await migrationStatus(database.db)) };
    },
  },
  'db status': {
    usage: '',
    summary: 'applied and pending migrations',
    run: async ({ database, config }) => ({ database: describeDatabase(config.DATABASE_URL), ...(await migrationStatus(database.db)) }),
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, spec]) => `  ${name.padEnd(width)}  ${spec.summary}`);
  return `${INTRO}\n\nCommands:\n${lines.join('\n')}`;
}

function commandHelp(name: string, spec: CommandSpec): string {
  return [`pnpm cli ${name}${spec.usage ? ` ${spec.usage}` : ''}`, '', `  ${spec.summary}.`, ...(spec.detail ? ['', `  ${spec.detail}`] : [])].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'owner-email': { type: 'string' },
      org: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      user: { type: 'string' },
      scopes: { type: 'string' },
      key: { type: 'string' },
      workstream: { type: 'string' },
      scope: { type: 'string' },
      repair: { type: 'boolean' },
      retire: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  if (values.version) {
    console.log(`${SERVICE_INFO.name} ${SERVICE_INFO.version}`);
    return 0;
  }
  if (positionals.length === 0) {
    console.log(usage());
    return 0;
  }
  const name = positionals[0] === 'doctor' ? 'doctor' : positionals.slice(0, 2).join(' ');
  const spec = COMMANDS[name];
  const words = name.split(' ').length;
  if (!spec || positionals.length > words + (spec.operand ? 1 : 0)) throw new UsageError(`Unknown command "${positionals.join(' ')}"`);
  if (spec.operand?.required && positionals[words] === undefined && !values.help) throw new UsageError(`<${spec.operand.name}> is required`);
  if (values.help) {
    console.log(commandHelp(name, spec));
    return 0;
  }
  const config = loadConfig();
  checkedDatabase = describeDatabase(config.DATABASE_URL);
  const database = openDatabase(config.DATABASE_URL, { poolSize: 2, fastPaths: config.DATABASE_FAST_PATHS });
  const logger = createLogger({ LOG_LEVEL: 'warn' });
  let built: MemoryBankApp | undefined;
  const app = () => (built ??= createApp({ db: database.db, config, logger }));
  try {
    const { help: _help, version: _version, repair, retire, ...strings } = values;
    const operand = spec.operand && positionals[words] !== undefined ? { [spec.operand.name]: positionals[words] } : {};
    const options: Options = { ...strings, ...operand, ...(repair ? { repair: 'true' } : {}), ...(retire ? { retire: 'true' } : {}) };
    const result = await spec.run({ config, database, logger, app }, options);
    const { output, exitCode } =
      result && typeof result === 'object' && 'exitCode' in result ? (result as { output: unknown; exitCode: number }) : { output: result, exitCode: 0 };
    if (output !== undefined) console.log(JSON.stringify(output, null, 2));
    return exitCode;
  } finally {
    await built?.close({ flush: false });
    await database.close();
  }
}

/** host:port/database of DATABASE_URL (never its password), for the error that has no schema. */
let checkedDatabase: string | undefined;

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) console.error(`${error.message}\n\n${usage()}`);
    else if (error instanceof ConfigError) console.error(error.message);
    else if (error instanceof AppError) console.error(`${error.detail} (${error.code})`);
    else if (hasErrorCode(error, 'ER_BAD_DB_ERROR') || hasErrorCode(error, 'ER_NO_SUCH_TABLE')) {
      // A new shell without the server's DATABASE_URL lands on the default database: say which one was read.
      console.error(
        `The database ${checkedDatabase ? `${checkedDatabase} (DATABASE_URL)` : 'in DATABASE_URL'} has no Memory Bank schema (yet). ` +
          'The CLI reads DATABASE_URL like the server: if the server runs with another one, set the same DATABASE_URL here; ' +
          'otherwise run `pnpm cli db migrate` (or `pnpm start`) first.',
      );
    } else console.error(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(error instanceof UsageError ? 64 : 1);
  },
);
