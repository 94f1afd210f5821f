import openapiTS, { astToString } from 'openapi-typescript';

/** The generated sources, relative to packages/client: what `pnpm --filter @memory-bank/client generate` writes. */
export const GENERATED_FILES = { schema: 'src/generated/schema.ts', idempotent: 'src/generated/idempotent-operations.ts', limits: 'src/generated/limits.ts' } as const;

const HEADER = '// Generated from the service\'s /openapi.json by `pnpm --filter @memory-bank/client generate`. Do not edit.\n';

interface OpenApiOperation {
  parameters?: { in?: string; name?: string }[];
}

/** `METHOD /path/{template}` of every operation that takes an Idempotency-Key header. */
function idempotentOperations(doc: { paths?: Record<string, Record<string, OpenApiOperation>> }): string[] {
  const found: string[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      const takesKey = (operation.parameters ?? []).some((p) => p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key');
      if (takesKey) found.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return found.sort();
}

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; items?: JsonSchema };
const BOUNDS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minimum', 'maximum'] as const;

/** A schema's own length and count bounds (and its items'), or null when it has none. */
function boundsOf(schema: JsonSchema): Record<string, unknown> | null {
  const found: Record<string, unknown> = {};
  for (const bound of BOUNDS) if (typeof schema[bound] === 'number') found[bound] = schema[bound];
  const items = schema.items ? boundsOf(schema.items) : null;
  if (items) found.items = items;
  return Object.keys(found).length ? found : null;
}

/**
 * The bounds of every field of the named schemas that request bodies use (directly or
 * through other named schemas), e.g. `CreateMemory.content.maxLength`: what a form checks
 * before it sends, from the same document the server validates against.
 */
function requestFieldBounds(doc: { paths?: Record<string, Record<string, unknown>>; components?: { schemas?: Record<string, JsonSchema> } }) {
  const schemas = doc.components?.schemas ?? {};
  const refs = (value: unknown) => [...JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]!);
  const pending = Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item).flatMap((operation) => refs((operation as { requestBody?: unknown }).requestBody ?? null)));
  const used = new Set<string>();
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (used.has(name) || !schemas[name]) continue;
    used.add(name);
    pending.push(...refs(schemas[name]));
  }
  const result: Record<string, Record<string, unknown>> = {};
  for (const name of [...used].sort()) {
    const fields: Record<string, unknown> = {};
    for (const [field, schema] of Object.entries(schemas[name]!.properties ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
      const bounds = boundsOf(schema);
      if (bounds) fields[field] = bounds;
    }
    if (Object.keys(fields).length) result[name] = fields;
  }
  return result;
}

/** A JSON value as TypeScript source: unquoted keys where they are identifiers. */
function literal(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  const entries = Object.entries(value).map(([key, item]) => `${inner}${/^[A-Za-z_$][\w$]*$/.test(key) ? key : `'${key}'`}: ${literal(item, inner)},\n`);
  return `{\n${entries.join('')}${indent}}`;
}

/** The generated sources for one OpenAPI document (a JSON text). */
export async function renderClientSources(documentJson: string): Promise<Record<keyof typeof GENERATED_FILES, string>> {
  const doc = JSON.parse(documentJson) as Parameters<typeof idempotentOperations>[0] & Parameters<typeof requestFieldBounds>[0];
  const ast = await openapiTS(documentJson, { alphabetize: true });
  const operations = idempotentOperations(doc);
  return {
    schema: `${HEADER}/* eslint-disable */\n${astToString(ast)}`,
    idempotent:
      `${HEADER}\n/** Operations that honour an \`Idempotency-Key\` header (the client sends one on these). */\n` +
      `export const IDEMPOTENT_OPERATIONS: ReadonlySet<string> = new Set([\n${operations.map((o) => `  '${o}',\n`).join('')}]);\n`,
    limits:
      `${HEADER}\n/**\n * Bounds of the fields of request bodies, per named schema and field, as the OpenAPI document\n` +
      ` * publishes them (JSON Schema's minLength, maxLength, minItems, maxItems, minimum, maximum;\n` +
      ` * \`items\`: each element's), for forms to check before they send; the API still decides.\n */\n` +
      `export const FIELD_LIMITS = ${literal(requestFieldBounds(doc))} as const;\n`,
  };
}
