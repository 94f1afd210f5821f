import type { CallToolResult } from '@modelcontextprotocol/server';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { AppError, type FieldError } from '../errors';
import { toProblem, type Problem } from '../http/problems';
import { isRecord } from '../json';
import type { OperationTool } from './openapi-tools';

/** Sends a request to the app in-process. */
export type Dispatch = (request: Request) => Response | Promise<Response>;

/** Who a tool call or resource read runs as: the app in-process, with the caller's headers. */
export interface InProcessCaller {
  dispatch: Dispatch;
  /** Request id and credentials of the /mcp request; copied into each request made. */
  headers: Headers;
  requestId: string;
}

/** The origin of requests the bridge sends to the app in-process (never on the network). */
export const IN_PROCESS_ORIGIN = 'http://memory-bank.internal';

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
const validators = new WeakMap<OperationTool, ValidateFunction>();

function validatorFor(tool: OperationTool): ValidateFunction {
  let validate = validators.get(tool);
  if (!validate) {
    validate = ajv.compile(tool.inputValidation);
    validators.set(tool, validate);
  }
  return validate;
}

function fieldErrors(errors: ErrorObject[]): FieldError[] {
  return errors
    .filter((error) => error.keyword !== 'if')
    .map((error) => {
      const segments = error.instancePath.split('/').filter(Boolean).map(decodeURIComponent);
      if (error.keyword === 'required') segments.push(String((error.params as { missingProperty: string }).missingProperty));
      return { path: segments.join('.') || '(arguments)', message: error.message ?? 'is invalid' };
    });
}

function errorResult(problem: Problem): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(problem) }],
    structuredContent: { ...problem },
  };
}

/**
 * Builds the HTTP request a tool call stands for: path, query, headers and JSON body from
 * one flat argument object; or the
 * arguments' errors, for a header value no HTTP header can carry (a line break, a character
 * beyond Latin-1), which the input schema's `string` lets through.
 */
function toRequest(tool: OperationTool, args: Record<string, unknown>, headers: Headers): { request: Request } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  let path = tool.pathTemplate;
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    const place = tool.places[name];
    if (value === undefined || !place) continue;
    if (place === 'path') path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
    else if (place === 'query') {
      for (const item of Array.isArray(value) ? value : [value]) query.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item));
    } else if (place === 'header') {
      // Never over what the bridge itself sends (credentials, request id).
      const header = tool.headerNames[name];
      try {
        if (header && !headers.has(header)) headers.set(header, String(value));
      } catch {
        errors.push({ path: name, message: 'must be text an HTTP header can carry (visible ASCII, no line breaks)' });
      }
    } else body[name] = value;
  }
  if (errors.length > 0) return { errors };
  const search = query.size > 0 ? `?${query}` : '';
  if (tool.hasBody) headers.set('content-type', 'application/json');
  return { request: new Request(`${IN_PROCESS_ORIGIN}${path}${search}`, { method: tool.method, headers, ...(tool.hasBody && { body: JSON.stringify(body) }) }) };
}

/**
 * Runs a tool: checks the arguments against its inputSchema, then calls the real route
 * through the app (same validation, owner scoping, limits and errors as REST) and turns
 * the HTTP answer into an MCP result.
 */
export async function invokeTool(
  tool: OperationTool,
  args: Record<string, unknown>,
  context: InProcessCaller,
): Promise<CallToolResult> {
  const validate = validatorFor(tool);
  const built = validate(args) ? toRequest(tool, args, new Headers(context.headers)) : { errors: fieldErrors(validate.errors ?? []) };
  if ('errors' in built) {
    const { errors } = built;
    const detail = `Invalid arguments for ${tool.definition.name}: ${errors.map((error) => `${error.path}: ${error.message}`).join('; ')}`;
    return errorResult(toProblem(new AppError('validation_failed', detail, { errors }), context.requestId));
  }

  const response = await context.dispatch(built.request);
  const text = await response.text();
  const parsed: unknown = text && /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined;

  if (!response.ok) {
    const problem =
      parsed && typeof parsed === 'object'
        ? (parsed as Problem)
        : { type: 'about:blank', title: response.statusText, status: response.status, detail: text, request_id: context.requestId };
    return errorResult(problem);
  }
  if (response.status === 204 || parsed === undefined) {
    return { content: [{ type: 'text', text: `Done (HTTP ${response.status}).` }] };
  }
  return {
    content: [{ type: 'text', text }],
    ...(isRecord(parsed) ? { structuredContent: parsed } : {}),
  };
}
