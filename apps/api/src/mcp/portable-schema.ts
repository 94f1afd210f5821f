import type { JsonSchema } from './json-schema';

/**
 * Rewrites an OpenAPI 3.1 schema into the JSON Schema every MCP client maps cleanly (the
 * MCP Inspector's portability check: one `type` per schema, no schema that constrains
 * nothing, no OpenAPI-only keywords).
 *
 * - `type: [T, "null"]` — input: `type: T` (an absent argument is what null means to the
 *   routes; the tool still accepts an explicit null, see invoke.ts); output: `anyOf` of the
 *   two, because a result really holds nulls.
 * - `additionalProperties: {}` / `items: {}` mean "anything", which is also what leaving
 *   them out means: dropped.
 * - `example` (OpenAPI's, not JSON Schema's) is dropped, and so are the keywords that only
 *   document (`description`, `format`, `default`) when `documentation` is false: output
 *   schemas, where the model reads the result rather than its schema, and every byte of
 *   tools/list is context the model pays for.
 * - `required` below the top level is dropped when `nestedRequired` is false (output
 *   schemas: the top-level members are still required, and the rest only repeats the shape).
 * - Below `detailLevels` levels of `properties` and `items` (output schemas), a value is
 *   described by its type alone: the members of a result are listed with their types, and
 *   what they hold (a memory's contexts, the memories of a page) is the result's to show.
 */
export interface PortableOptions {
  nullable: 'omit' | 'anyOf';
  documentation: boolean;
  nestedRequired: boolean;
  detailLevels?: number;
}

/** A schema by its type alone (and its null branch). */
function typeOnly(schema: JsonSchema): JsonSchema {
  if (schema.type !== undefined) return { type: schema.type };
  if (Array.isArray(schema.anyOf)) return { anyOf: schema.anyOf.map((branch) => (isSchema(branch) ? typeOnly(branch) : branch)) };
  return schema;
}

const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas'] as const;
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SCHEMA_VALUES = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else'] as const;

const DOCUMENTATION = ['description', 'format', 'default'];

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);
const acceptsAnything = (value: unknown) => value === true || (isSchema(value) && Object.keys(value).length === 0);

export function portableSchema(schema: JsonSchema, options: PortableOptions, depth = 0, level = 0): JsonSchema {
  if (options.detailLevels !== undefined && level > options.detailLevels) return portableSchema(typeOnly(schema), { ...options, detailLevels: undefined }, depth, level);
  const out: JsonSchema = {};
  const below = (sub: JsonSchema, levels = 0) => portableSchema(sub, options, depth + 1, level + levels);
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'example' || (!options.documentation && DOCUMENTATION.includes(keyword))) continue;
    if (keyword === 'required' && depth > 0 && !options.nestedRequired) continue;
    if ((SCHEMA_MAPS as readonly string[]).includes(keyword) && isSchema(value)) {
      out[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, isSchema(sub) ? below(sub, 1) : sub]));
    } else if ((SCHEMA_LISTS as readonly string[]).includes(keyword) && Array.isArray(value)) {
      out[keyword] = value.map((sub) => (isSchema(sub) ? below(sub) : sub));
    } else if ((SCHEMA_VALUES as readonly string[]).includes(keyword)) {
      if ((keyword === 'additionalProperties' || keyword === 'items') && acceptsAnything(value)) continue;
      out[keyword] = isSchema(value) ? below(value, keyword === 'items' ? 1 : 0) : value;
    } else {
      out[keyword] = value;
    }
  }
  return Array.isArray(out.type) ? splitTypes(out, out.type as string[], options) : out;
}

function splitTypes(schema: JsonSchema, types: string[], options: PortableOptions): JsonSchema {
  const { type: _type, description, ...rest } = schema;
  const described = description === undefined ? {} : { description };
  const concrete = types.filter((type) => type !== 'null');
  const nullable = concrete.length < types.length;
  if (concrete.length === 1 && (!nullable || options.nullable === 'omit')) return { type: concrete[0], ...rest, ...described };
  // Constraints of other types are ignored by JSON Schema, so each branch may carry them all.
  const branches: JsonSchema[] = concrete.map((type) => ({ type, ...rest }));
  if (nullable && options.nullable === 'anyOf') branches.push({ type: 'null' });
  return { anyOf: branches, ...described };
}
