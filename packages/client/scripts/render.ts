import openapiTS, { astToString } from 'openapi-typescript';

/** The generated sources, relative to packages/client: what `pnpm --filter @memory-bank/client generate` writes. */
export const GENERATED_FILES = { schema: 'src/generated/schema.ts', idempotent: 'src/generated/idempotent-operations.ts' } as const;

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

/** The generated sources for one OpenAPI document (a JSON text). */
export async function renderClientSources(documentJson: string): Promise<Record<keyof typeof GENERATED_FILES, string>> {
  const doc = JSON.parse(documentJson) as Parameters<typeof idempotentOperations>[0];
  const ast = await openapiTS(documentJson, { alphabetize: true });
  const operations = idempotentOperations(doc);
  return {
    schema: `${HEADER}/* eslint-disable */\n${astToString(ast)}`,
    idempotent:
      `${HEADER}\n/** Operations that honour an \`Idempotency-Key\` header (the client sends one on these). */\n` +
      `export const IDEMPOTENT_OPERATIONS: ReadonlySet<string> = new Set([\n${operations.map((o) => `  '${o}',\n`).join('')}]);\n`,
  };
}
