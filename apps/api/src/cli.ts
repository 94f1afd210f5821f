import { parseArgs } from 'node:util';
import { hasErrorCode } from '@memory-bank/db';
import { ensureDatabase, migrateDatabase, migrationStatus, openDatabase, type DatabaseHandle } from '@memory-bank/db/system';
import type { Logger } from 'pino';
import { ulid } from 'ulid';
import type { ZodType } from 'zod';
import { createApp, type MemoryBankApp } from './app';
import { runDoctor } from './archive/doctor';
import { rebuildLedger } from './archive/rebuild';
import { ConfigError, loadConfig } from './config';
import { AppError } from './errors';
import { createLogger } from './logger';
import { CreateApiKeyBody } from './routes/api-keys/create';
import { toApiKeyResponse, toIssuedApiKeyResponse } from './routes/api-keys/schemas';
import { CreateOrgBody } from './routes/operator/create-org';
import { AddMemberBody } from './routes/org/add-member';
import { toOrgResponse, toUserResponse } from './routes/org/schemas';
import type { Services } from './services';
import { systemClock } from './clock';

const USAGE = `Memory Bank operator CLI (prints JSON on stdout)

  pnpm cli orgs create --name <name> --owner-email <email>
  pnpm cli orgs delete --org <org_id>   everything of the org, object storage included
  pnpm cli members add --org <org_id> --email <email> [--role member|admin|owner]
  pnpm cli keys create --user <usr_id> --name <name> [--scopes memory:read,memory:write]
  pnpm cli keys list --user <usr_id>
  pnpm cli keys revoke --key <key_id>
  pnpm cli ledger rebuild [--org <org_id>] [--workstream <ws_id>]
                             rebuild the hook ledger from the archived segments
  pnpm cli doctor [--repair] migrations, FULLTEXT indexes, archive backlog,
                             segment integrity and orphans (exit 1 if unhealthy)
  pnpm cli db migrate        create the database if missing and apply migrations
  pnpm cli db status         applied and pending migrations

Reads DATABASE_URL like the server (see README.md).`;

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

interface CommandContext {
  services: Services;
  built: MemoryBankApp;
  database: DatabaseHandle;
  logger: Logger;
}

/** A command's JSON output, and its exit code when not 0. */
type Command = (context: CommandContext, options: Options) => Promise<unknown | { output: unknown; exitCode: number }>;

const COMMANDS: Record<string, Command> = {
  'orgs create': async ({ services }, options) => {
    const body = validated(CreateOrgBody, { name: required(options, 'name'), owner: { email: required(options, 'owner-email') } });
    const created = await services.operator.provision({ name: body.name, ownerEmail: body.owner.email }, requestId);
    return { org: toOrgResponse(created.org), user: toUserResponse(created.user), api_key: toIssuedApiKeyResponse(created.apiKey) };
  },
  'orgs delete': async ({ services }, options) => ({ deleted: await services.operator.deleteOrg(required(options, 'org'), requestId) }),
  'members add': async ({ services }, options) => {
    const body = validated(AddMemberBody, { email: required(options, 'email'), role: options.role ?? 'member' });
    const added = await services.operator.addMember(required(options, 'org'), body, requestId);
    return { user: toUserResponse(added.user), api_key: toIssuedApiKeyResponse(added.apiKey) };
  },
  'keys create': async ({ services }, options) =>
    toIssuedApiKeyResponse(
      await services.operator.issueKey(
        required(options, 'user'),
        validated(CreateApiKeyBody, { name: required(options, 'name'), scopes: scopesOption(options.scopes) }),
        requestId,
      ),
    ),
  'keys list': async ({ services }, options) => ({
    api_keys: (await services.operator.listKeys(required(options, 'user'))).map(toApiKeyResponse),
  }),
  'keys revoke': async ({ services }, options) => {
    await services.operator.revokeKey(required(options, 'key'), requestId);
    return { revoked: options.key };
  },
  'ledger rebuild': async ({ built, database, logger }, options) =>
    rebuildLedger(
      { db: database.db, store: built.store, logger },
      { ...(options.org ? { orgId: options.org } : {}), ...(options.workstream ? { workstreamId: options.workstream } : {}) },
    ),
  doctor: async ({ built, database, logger }, options) => {
    const report = await runDoctor(
      { db: database.db, store: built.store, archiver: built.archiver, clock: systemClock, logger, migrate: () => migrateDatabase(database.pool) },
      { repair: options.repair === 'true' },
    );
    return { output: report, exitCode: report.ok ? 0 : 1 };
  },
};

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
      repair: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const name = positionals[0] === 'doctor' ? 'doctor' : positionals.slice(0, 2).join(' ');
  if (values.help || positionals.length === 0) {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig();
  if (name === 'db migrate') await ensureDatabase(config.DATABASE_URL);
  const database = openDatabase(config.DATABASE_URL, { poolSize: 2 });
  try {
    let result: unknown;
    if (name === 'db migrate') {
      await migrateDatabase(database.pool);
      result = await migrationStatus(database.db);
    } else if (name === 'db status') {
      result = await migrationStatus(database.db);
    } else {
      const command = COMMANDS[name];
      if (!command) throw new UsageError(`Unknown command "${positionals.join(' ')}"`);
      const logger = createLogger({ LOG_LEVEL: 'warn' });
      const built = createApp({ db: database.db, config, logger });
      const { help: _help, repair, ...strings } = values;
      const options: Options = { ...strings, ...(repair ? { repair: 'true' } : {}) };
      try {
        result = await command({ services: built.services, built, database, logger }, options);
      } finally {
        await built.close({ flush: false });
      }
    }
    const { output, exitCode } =
      result && typeof result === 'object' && 'exitCode' in result ? (result as { output: unknown; exitCode: number }) : { output: result, exitCode: 0 };
    console.log(JSON.stringify(output, null, 2));
    return exitCode;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
    else if (error instanceof ConfigError) console.error(error.message);
    else if (error instanceof AppError) console.error(`${error.detail} (${error.code})`);
    else if (hasErrorCode(error, 'ER_BAD_DB_ERROR') || hasErrorCode(error, 'ER_NO_SUCH_TABLE')) {
      console.error('The database in DATABASE_URL has no Memory Bank schema (yet): run `pnpm cli db migrate` (or `pnpm start`) first.');
    } else console.error(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(error instanceof UsageError ? 64 : 1);
  },
);
