import { parseArgs } from 'node:util';
import { ensureDatabase, migrateDatabase, migrationStatus, openDatabase } from '@memory-bank/db';
import type { ZodType } from 'zod';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config';
import { AppError } from './errors';
import { createLogger } from './logger';
import { CreateApiKeyBody } from './routes/api-keys/create';
import { toApiKeyResponse, toIssuedApiKeyResponse } from './routes/api-keys/schemas';
import { CreateOrgBody } from './routes/operator/create-org';
import { AddMemberBody } from './routes/org/add-member';
import { toOrgResponse, toUserResponse } from './routes/org/schemas';
import type { Services } from './services';

const USAGE = `Memory Bank operator CLI (prints JSON on stdout)

  pnpm cli orgs create --name <name> --owner-email <email>
  pnpm cli members add --org <org_id> --email <email> [--role member|admin|owner]
  pnpm cli keys create --user <usr_id> --name <name> [--scopes memory:read,memory:write]
  pnpm cli keys list --user <usr_id>
  pnpm cli keys revoke --key <key_id>
  pnpm cli db migrate        create the database if missing and apply migrations
  pnpm cli db status         applied and pending migrations

Reads DATABASE_URL like the server (see README.md).`;

class UsageError extends Error {}

type Options = Record<string, string | undefined>;

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

type Command = (services: Services, options: Options) => Promise<unknown>;

const COMMANDS: Record<string, Command> = {
  'orgs create': async (services, options) => {
    const body = validated(CreateOrgBody, { name: required(options, 'name'), owner: { email: required(options, 'owner-email') } });
    const created = await services.orgs.provision({ name: body.name, ownerEmail: body.owner.email });
    return { org: toOrgResponse(created.org), user: toUserResponse(created.user), api_key: toIssuedApiKeyResponse(created.apiKey) };
  },
  'members add': async (services, options) => {
    const body = validated(AddMemberBody, { email: required(options, 'email'), role: options.role ?? 'member' });
    const added = await services.orgs.addMemberAsOperator(required(options, 'org'), body);
    return { user: toUserResponse(added.user), api_key: toIssuedApiKeyResponse(added.apiKey) };
  },
  'keys create': async (services, options) =>
    toIssuedApiKeyResponse(
      await services.apiKeys.issueAsOperator(
        required(options, 'user'),
        validated(CreateApiKeyBody, { name: required(options, 'name'), scopes: scopesOption(options.scopes) }),
      ),
    ),
  'keys list': async (services, options) => ({
    api_keys: (await services.apiKeys.listAsOperator(required(options, 'user'))).map(toApiKeyResponse),
  }),
  'keys revoke': async (services, options) => {
    await services.apiKeys.revokeAsOperator(required(options, 'key'));
    return { revoked: options.key };
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
      help: { type: 'boolean', short: 'h' },
    },
  });
  const name = positionals.slice(0, 2).join(' ');
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
      const { services } = createApp({ db: database.db, config, logger: createLogger({ LOG_LEVEL: 'warn' }) });
      result = await command(services, values as Options);
    }
    console.log(JSON.stringify(result, null, 2));
    return 0;
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
    else console.error(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(error instanceof UsageError ? 64 : 1);
  },
);
