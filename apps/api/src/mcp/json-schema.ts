/** A JSON Schema (OpenAPI 3.1 schemas are JSON Schema 2020-12). */
export type JsonSchema = { [keyword: string]: unknown };

const MAX_DEPTH = 32;

/**
 * A copy of `schema` with every `$ref` into `#/components/schemas/` replaced by its
 * target, recursively: MCP clients get self-contained schemas. Sibling keywords of a
 * `$ref` (a description, say) are kept and win over the target's.
 */
export function resolveRefs(schema: unknown, components: Record<string, JsonSchema>, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw new Error('Schema nesting is too deep (a $ref cycle?)');
  if (Array.isArray(schema)) return schema.map((item) => resolveRefs(item, components, depth + 1));
  if (!schema || typeof schema !== 'object') return schema;
  const { $ref, ...rest } = schema as JsonSchema;
  let base: JsonSchema = {};
  if (typeof $ref === 'string') {
    const name = /^#\/components\/schemas\/(.+)$/.exec($ref)?.[1];
    const target = name === undefined ? undefined : components[decodeURIComponent(name)];
    if (!target) throw new Error(`Unresolvable $ref ${$ref}`);
    base = resolveRefs(target, components, depth + 1) as JsonSchema;
  }
  const resolved: JsonSchema = { ...base };
  for (const [key, value] of Object.entries(rest)) resolved[key] = resolveRefs(value, components, depth + 1);
  return resolved;
}
