import type { JsonSchema } from './json-schema';
import { resolveRefs } from './json-schema';
import { portableSchema } from './portable-schema';

/**
 * Reads an OpenAPI 3.1 document and describes each allowed operation as an MCP tool.
 * Knows nothing about any one route: a new zod-openapi route with an allowed tag is a
 * new tool, `x-mcp: false` hides one.
 */

export type ArgumentPlace = 'path' | 'query' | 'header' | 'body';

/** The tool's hints; its title is the tool's own `title` (not repeated here: tools/list is context the model pays for). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: false;
}

export interface OperationTool {
  /** The MCP tool: what tools/list shows. */
  definition: {
    name: string;
    title: string;
    description: string;
    inputSchema: JsonSchema & { type: 'object' };
    outputSchema?: JsonSchema & { type: 'object' };
    annotations: ToolAnnotations;
  };
  /** The exact input schema (nulls where the route takes them), which calls are checked against. */
  inputValidation: JsonSchema;
  /** Scopes from the operation's bearer security requirement. */
  requiredScopes: string[];
  method: string;
  pathTemplate: string;
  /** Where each argument goes in the HTTP request. */
  places: Record<string, ArgumentPlace>;
  /** The HTTP header each `header` argument is sent as (`idempotency_key` → `idempotency-key`). */
  headerNames: Record<string, string>;
  /** The operation takes a JSON body (sent even when no body argument was given). */
  hasBody: boolean;
}

export interface CatalogOptions {
  /** Operations with at least one of these tags become tools. */
  allowTags: readonly string[];
  /** Tags that are never exposed, whatever the allow-list says. */
  denyTags: readonly string[];
  /** The security scheme of API keys; operations without it are never exposed. */
  bearerScheme: string;
}

interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
  'x-mcp'?: boolean;
}

export interface OpenApiDocument {
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Only deletes destroy: saving and correcting a memory change it, but lose nothing the user did not ask to replace. */
function annotationsFor(method: string): ToolAnnotations {
  switch (method) {
    case 'get':
      return { readOnlyHint: true, openWorldHint: false };
    case 'delete':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
    default:
      return { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
  }
}

/**
 * How many levels an output schema details (portable-schema.ts): the result's members with
 * their types; what a member holds (the memories of a page, a memory's contexts) by type.
 * Every byte of tools/list is context the model pays for, on every turn.
 */
const OUTPUT_DETAIL_LEVELS = 1;

/** The members every problem+json body has (RFC 9457): what a failed call's structuredContent holds. */
const PROBLEM_MEMBERS = ['type', 'title', 'status', 'detail'];

/**
 * The 2xx JSON schema as the tool's outputSchema. A failed call's structuredContent is
 * the problem document instead, so the schema admits either (clients such as the SDK
 * validate structuredContent even on errors): `properties` shows the success shape and
 * `anyOf` requires either its members or the problem's. The problem branch names members
 * only, which holds as long as no success shape has a property of the same name.
 */
function outputSchemaOf(name: string, success: JsonSchema | undefined): (JsonSchema & { type: 'object' }) | undefined {
  if (!success || success.type !== 'object') return undefined;
  const { required, ...shape } = success;
  const clash = Object.keys((shape.properties ?? {}) as JsonSchema).filter((property) => PROBLEM_MEMBERS.includes(property));
  if (clash.length > 0) throw new Error(`MCP: the result of ${name} has ${clash.join(', ')}, which a problem document also has; rename it`);
  return {
    ...shape,
    type: 'object',
    anyOf: [{ required: Array.isArray(required) ? required : [] }, { required: PROBLEM_MEMBERS }],
  };
}

function successSchema(operation: OpenApiOperation): JsonSchema | undefined {
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    if (!/^2\d\d$/.test(status)) continue;
    const schema = response.content?.['application/json']?.schema;
    if (schema) return schema;
  }
  return undefined;
}

/** The description says when to use the tool; the summary is already its title. */
function describeOperation(operation: OpenApiOperation): string {
  return operation.description?.trim() || operation.summary || '';
}

export function buildToolCatalog(document: OpenApiDocument, options: CatalogOptions): OperationTool[] {
  const components = document.components?.schemas ?? {};
  const resolve = (schema: unknown) => resolveRefs(schema, components) as JsonSchema;
  const tools: OperationTool[] = [];

  for (const [pathTemplate, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method] as OpenApiOperation | undefined;
      if (!operation) continue;
      const tags = operation.tags ?? [];
      const bearer = operation.security?.find((requirement) => options.bearerScheme in requirement);
      if (operation['x-mcp'] === false || !bearer) continue;
      if (tags.some((tag) => options.denyTags.includes(tag)) || !tags.some((tag) => options.allowTags.includes(tag))) continue;
      const name = operation.operationId;
      if (!name) throw new Error(`MCP: ${method.toUpperCase()} ${pathTemplate} has no operationId, so it cannot be a tool`);

      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      const places: Record<string, ArgumentPlace> = {};
      const headerNames: Record<string, string> = {};
      const add = (argument: string, place: ArgumentPlace, schema: JsonSchema, isRequired: boolean) => {
        if (places[argument]) {
          throw new Error(
            `MCP: tool ${name} has two arguments named "${argument}" (${places[argument]} and ${place}); rename one`,
          );
        }
        places[argument] = place;
        properties[argument] = schema;
        if (isRequired) required.push(argument);
      };

      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'path' && parameter.in !== 'query' && parameter.in !== 'header') continue;
        const schema = resolve(parameter.schema ?? {});
        if (parameter.description && !schema.description) schema.description = parameter.description;
        // Header names are not identifiers: `Idempotency-Key` becomes the argument `idempotency_key`.
        const argument = parameter.in === 'header' ? parameter.name.toLowerCase().replaceAll('-', '_') : parameter.name;
        if (parameter.in === 'header') headerNames[argument] = parameter.name.toLowerCase();
        add(argument, parameter.in, schema, parameter.in === 'path' || parameter.required === true);
      }
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      if (bodySchema) {
        const body = resolve(bodySchema);
        const bodyRequired = new Set(Array.isArray(body.required) ? (body.required as string[]) : []);
        for (const [argument, schema] of Object.entries((body.properties ?? {}) as Record<string, JsonSchema>)) {
          add(argument, 'body', schema, operation.requestBody?.required === true && bodyRequired.has(argument));
        }
      }

      const title = operation.summary ?? name;
      const success = successSchema(operation);
      const outputSchema = outputSchemaOf(name, success && portableSchema(resolve(success), { nullable: 'anyOf', documentation: false, nestedRequired: false, detailLevels: OUTPUT_DETAIL_LEVELS }));
      const inputSchema: JsonSchema & { type: 'object' } = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
      tools.push({
        definition: {
          name,
          title,
          description: describeOperation(operation),
          inputSchema: portableSchema(inputSchema, { nullable: 'omit', documentation: true, nestedRequired: true }) as typeof inputSchema,
          ...(outputSchema ? { outputSchema } : {}),
          annotations: annotationsFor(method),
        },
        inputValidation: inputSchema,
        requiredScopes: bearer[options.bearerScheme] ?? [],
        method: method.toUpperCase(),
        pathTemplate,
        places,
        headerNames,
        hasBody: bodySchema !== undefined,
      });
    }
  }

  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.definition.name)) throw new Error(`MCP: two operations share the operationId ${tool.definition.name}`);
    seen.add(tool.definition.name);
  }
  return tools.sort((a, b) => (a.definition.name < b.definition.name ? -1 : a.definition.name > b.definition.name ? 1 : 0));
}
