import type { JsonSchema } from './json-schema';
import { resolveRefs } from './json-schema';

/**
 * Reads an OpenAPI 3.1 document and describes each allowed operation as an MCP tool.
 * Knows nothing about any one route: a new zod-openapi route with an allowed tag is a
 * new tool, `x-mcp: false` hides one.
 */

export type ArgumentPlace = 'path' | 'query' | 'header' | 'body';

export interface ToolAnnotations {
  title: string;
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

function annotationsFor(method: string, title: string): ToolAnnotations {
  switch (method) {
    case 'get':
      return { title, readOnlyHint: true, openWorldHint: false };
    case 'delete':
      return { title, readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
    default:
      return { title, readOnlyHint: false, destructiveHint: false, openWorldHint: false };
  }
}

/** The problem+json body every failed call returns (RFC 9457). */
const PROBLEM_OUTPUT: JsonSchema = {
  type: 'object',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    request_id: { type: 'string' },
    errors: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
  },
  required: ['type', 'title', 'status', 'detail'],
};

/**
 * The 2xx JSON schema as the tool's outputSchema. A failed call's structuredContent is
 * the problem document instead, so the schema admits either (clients such as the SDK
 * validate structuredContent even on errors); `properties` still shows the success shape.
 */
function outputSchemaOf(success: JsonSchema | undefined): (JsonSchema & { type: 'object' }) | undefined {
  if (!success || success.type !== 'object') return undefined;
  const { required, ...shape } = success;
  return {
    ...shape,
    type: 'object',
    anyOf: [{ required: Array.isArray(required) ? required : [] }, PROBLEM_OUTPUT],
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

function describeOperation(operation: OpenApiOperation): string {
  return [operation.summary, operation.description].filter((part) => part && part.trim()).join('\n\n');
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
      const outputSchema = outputSchemaOf(resolve(successSchema(operation)));
      tools.push({
        definition: {
          name,
          title,
          description: describeOperation(operation),
          inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
          ...(outputSchema ? { outputSchema } : {}),
          annotations: annotationsFor(method, title),
        },
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
