import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

/** Every environment variable the service reads. docs: README.md#configuration. */
const commaList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean));

/** A web origin as browsers send it: scheme, host and port only (a trailing slash is forgiven). */
const isOrigin = (value: string) => URL.canParse(value) && new URL(value).origin === value.replace(/\/$/, '');

const originList = commaList('http://localhost,http://127.0.0.1,http://[::1]').refine((origins) => origins.every(isOrigin), {
  message: 'must be a comma-separated list of origins such as https://app.example.com,http://localhost',
});

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

/** Operator-supplied redaction patterns: a JSON array of { kind, pattern, flags? }. */
const redactPatterns = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value.trim() === '') return [];
    try {
      const parsed = z
        .array(z.object({ kind: z.string().regex(/^[a-z0-9_]{1,40}$/), pattern: z.string().min(1), flags: z.string().regex(/^[imsu]*$/).optional() }))
        .parse(JSON.parse(value));
      return parsed.map((entry) => ({ kind: entry.kind, pattern: new RegExp(entry.pattern, `g${entry.flags ?? ''}`) }));
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `must be a JSON array of {"kind":"name","pattern":"regex"} (${(error as Error).message.split('\n')[0]})` });
      return z.NEVER;
    }
  });

const isSecureOrLoopback = (url: URL) => url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));

/** Hosts that never leave the machine: plain http is acceptable for them. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Where memories get their sentence embeddings (docs/operations.md#embeddings). */
export const EMBEDDINGS_PROVIDERS = ['local', 'openai', 'none'] as const;

/** The semantic search settings (docs/operations.md#embeddings): checked together by checkEmbeddingSettings. */
const embeddingSettings = {
  /** `local`: the embedded English model; `openai`: an OpenAI-compatible endpoint; `none`: lexical search only. */
  EMBEDDINGS_PROVIDER: z.enum(EMBEDDINGS_PROVIDERS).default('local'),
  /** The API's base URL, such as https://api.openai.com/v1 (the service POSTs to <url>/embeddings; a URL ending in /embeddings is taken as is). */
  EMBEDDINGS_URL: optionalString.refine((value) => value === undefined || (URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)), {
    message: 'must be the http(s) base URL of an OpenAI-compatible API, such as https://api.openai.com/v1',
  }),
  EMBEDDINGS_MODEL: optionalString,
  EMBEDDINGS_API_KEY: optionalString,
  /** Asks the endpoint for vectors of this size (OpenAI's `dimensions`); unset: the model's own. */
  EMBEDDINGS_DIMENSIONS: optionalString.transform((value) => (value === undefined ? undefined : Number(value))).pipe(z.number().int().min(8).max(4096).optional()),
  /** The openai provider's similarity scale (the local model's is built in): cosines at or below the floor say nothing, at the ceiling the same thing. */
  EMBEDDINGS_SIMILARITY_FLOOR: z.coerce.number().min(-1).max(1).default(0.15),
  EMBEDDINGS_SIMILARITY_CEILING: z.coerce.number().min(-1).max(1).default(0.6),
  /** How long one request to the endpoint may take before it counts as down. */
  EMBEDDINGS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** How long a search waits for its query's vector before it answers lexically. */
  EMBEDDINGS_QUERY_DEADLINE_MS: z.coerce.number().int().min(10).max(30_000).default(1_500),
  /**
   * Memory the per-owner vector matrices may take in this process (least recently searched
   * owners leave first). The default keeps a process with the local model under 350 MB resident.
   */
  EMBEDDINGS_CACHE_BYTES: z.coerce.number().int().min(1024 * 1024).max(16 * 1024 ** 3).default(32 * 1024 * 1024),
  /** How often a cached owner's vectors are read again whole (what other replicas deleted leaves then). */
  EMBEDDINGS_RELOAD_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(120_000),
  /** How often the background sweep looks for memories without a current vector (after the backfill at start). */
  EMBEDDINGS_SWEEP_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(300_000),
};

/** Settings that only make sense together: the openai provider needs its endpoint and model. */
function checkEmbeddingSettings(
  config: { EMBEDDINGS_PROVIDER: string; EMBEDDINGS_URL?: string; EMBEDDINGS_MODEL?: string; EMBEDDINGS_SIMILARITY_FLOOR: number; EMBEDDINGS_SIMILARITY_CEILING: number },
  ctx: z.RefinementCtx,
): void {
  if (config.EMBEDDINGS_SIMILARITY_CEILING <= config.EMBEDDINGS_SIMILARITY_FLOOR) {
    ctx.addIssue({ code: 'custom', path: ['EMBEDDINGS_SIMILARITY_CEILING'], message: 'must be above EMBEDDINGS_SIMILARITY_FLOOR' });
  }
  if (config.EMBEDDINGS_PROVIDER !== 'openai') return;
  if (config.EMBEDDINGS_URL === undefined) ctx.addIssue({ code: 'custom', path: ['EMBEDDINGS_URL'], message: 'is required with EMBEDDINGS_PROVIDER=openai (e.g. https://api.openai.com/v1)' });
  if (config.EMBEDDINGS_MODEL === undefined) ctx.addIssue({ code: 'custom', path: ['EMBEDDINGS_MODEL'], message: 'is required with EMBEDDINGS_PROVIDER=openai (e.g. text-embedding-3-small)' });
}

const configSchema = z.object({
  DATABASE_URL: z
    .string()
    .default('mysql://root@127.0.0.1:3306/memory_bank')
    .refine((value) => /^mysql:\/\/[^/]+\/[A-Za-z0-9_$-]{1,64}(\?.*)?$/.test(value), {
      message: 'must look like mysql://user:password@host:3306/database',
    }),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(16),
  /** The driver seam's fast paths (packages/db/src/driver, docs/adr/0007-driver-seam.md); `false` after a drizzle or mysql2 upgrade until the equivalence suite passes. */
  DATABASE_FAST_PATHS: z.enum(['true', 'false']).default('true').transform((value) => value === 'true'),
  HOST: optionalString,
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  BODY_READ_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  MAX_BODY_BYTES_IN_FLIGHT: z.coerce.number().int().min(1024 * 1024).max(4 * 1024 ** 3).default(16 * 1024 * 1024),
  MEMORY_BANK_OPERATOR_TOKEN: optionalString.refine((value) => value === undefined || value.length >= 24, {
    message: 'must be at least 24 characters (it grants control of every org)',
  }),
  MCP_TOOL_TAGS: commaList('Memory'),
  MCP_ALLOWED_ORIGINS: originList,
  ARCHIVE_URL: z
    .string()
    .default('file://./data/archive')
    .refine((value) => /^file:\/\/.+/.test(value) || /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/.test(value), {
      message: 'must be file://<directory> or s3://<bucket>[/<prefix>]',
    }),
  S3_ENDPOINT: optionalString.refine((value) => value === undefined || URL.canParse(value), { message: 'must be a URL such as http://127.0.0.1:9000' }),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: booleanFlag,
  HOOK_REDACT_PATTERNS: redactPatterns,
  OIDC_ISSUER: optionalString.refine((value) => value === undefined || URL.canParse(value), { message: 'must be the issuer URL, e.g. https://auth.example.com/realms/acme' }),
  OIDC_AUDIENCE: optionalString,
  OIDC_ORG_CLAIM: z.string().min(1).default('org_id'),
  OIDC_JWKS_COOLDOWN_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  CORS_ORIGINS: commaList('').refine((origins) => origins.every((origin) => origin === '*' || isOrigin(origin)), {
    message: 'must be a comma-separated list of origins such as https://app.example.com (or *)',
  }),
  // Far above what an agent or an app sends (a busy session posts a few hook events a
  // second), low enough that one runaway client or leaked key cannot take the database from
  // the other tenants (docs/teams.md#rate-limits).
  RATE_LIMIT_KEY_PER_SECOND: z.coerce.number().min(0).default(300),
  RATE_LIMIT_KEY_BURST: z.coerce.number().int().min(1).default(1_500),
  RATE_LIMIT_ORG_PER_SECOND: z.coerce.number().min(0).default(1_500),
  RATE_LIMIT_ORG_BURST: z.coerce.number().int().min(1).default(6_000),
  API_KEY_CACHE_MS: z.coerce.number().int().min(0).max(1000).default(1000),
  REDIS_URL: optionalString.refine((value) => value === undefined || /^rediss?:\/\//.test(value), { message: 'must look like redis://127.0.0.1:6379' }),
  MEMORY_QUOTA_PER_ORG: z.coerce.number().int().min(0).default(0),
  METRICS_TOKEN: optionalString.refine((value) => value === undefined || value.length >= 16, {
    message: 'must be at least 16 characters (Prometheus sends it as a bearer token)',
  }),
  METRICS_PORT: optionalString.transform((value) => (value === undefined ? undefined : Number(value))).pipe(z.number().int().min(0).max(65535).optional()),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString.refine((value) => value === undefined || /^https?:\/\//.test(value), {
    message: 'must be the OTLP/HTTP base URL, such as http://otel-collector:4318',
  }),
  OTEL_SERVICE_NAME: z.string().min(1).default('memory-bank'),
  PUBLIC_URL: optionalString
    .refine((value) => value === undefined || URL.canParse(value), { message: 'must be an absolute URL such as https://memory.example.com' })
    .refine((value) => value === undefined || !URL.canParse(value) || isSecureOrLoopback(new URL(value)), {
      message: 'must be https (plain http only for localhost, 127.0.0.1 or [::1]): OAuth clients are sent to it to sign in',
    }),
  /** Dynamic client registration (RFC 7591) at <PUBLIC_URL>/oauth/reg, for MCP clients without client metadata documents. */
  OAUTH_DYNAMIC_REGISTRATION: z.enum(['true', 'false']).default('true').transform((value) => value === 'true'),
  /** Development and tests only: fetch client metadata documents from loopback addresses (still https). */
  OAUTH_CIMD_ALLOW_LOOPBACK: booleanFlag,
  ...embeddingSettings,
});

/** Where clients reach the service: PUBLIC_URL, else http://localhost:<PORT>. No trailing slash. */
export function publicUrl(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

export type Config = z.infer<typeof configSchema>;

/** The configuration, or why it cannot be one (settings that only make sense together). */
const checkedConfigSchema = configSchema.superRefine(checkEmbeddingSettings);

/** OIDC sign-in is on when both the issuer and the audience are configured. */
export function oidcEnabled(config: Config): config is Config & { OIDC_ISSUER: string; OIDC_AUDIENCE: string } {
  return config.OIDC_ISSUER !== undefined && config.OIDC_AUDIENCE !== undefined;
}

/** /metrics is served when a token protects it on the main port, or on its own port. */
export function metricsEnabled(config: Config): boolean {
  return config.METRICS_TOKEN !== undefined || config.METRICS_PORT !== undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the configuration once. A bad value names its variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = checkedConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
