import { z } from '@hono/zod-openapi';
import type { AppError, ErrorCode, FieldError } from '../errors';

/** Where a 401 says a credential is expected (RFC 6750), unless the error names another realm. */
export const REALM = 'memory-bank';

/** Each error code's HTTP status and title: the one place a code becomes a status. */
export const PROBLEM_STATUS = {
  bad_request: { status: 400, title: 'Bad Request' },
  validation_failed: { status: 400, title: 'Validation Failed' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  forbidden: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not Found' },
  method_not_allowed: { status: 405, title: 'Method Not Allowed' },
  conflict: { status: 409, title: 'Conflict' },
  quota_exceeded: { status: 409, title: 'Quota Exceeded' },
  request_timeout: { status: 408, title: 'Request Timeout' },
  precondition_failed: { status: 412, title: 'Precondition Failed' },
  payload_too_large: { status: 413, title: 'Payload Too Large' },
  unsupported_media_type: { status: 415, title: 'Unsupported Media Type' },
  idempotency_key_reused: { status: 422, title: 'Idempotency Key Reused' },
  header_fields_too_large: { status: 431, title: 'Request Header Fields Too Large' },
  rate_limited: { status: 429, title: 'Too Many Requests' },
  internal: { status: 500, title: 'Internal Server Error' },
  unavailable: { status: 503, title: 'Service Unavailable' },
} as const satisfies Record<ErrorCode, { status: number; title: string }>;

type Status = (typeof PROBLEM_STATUS)[ErrorCode]['status'];

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  request_id: string;
  errors?: FieldError[];
}

export function problemType(code: ErrorCode): string {
  return `urn:memory-bank:problem:${code}`;
}

export const statusOf = (error: AppError): Status => PROBLEM_STATUS[error.code].status;

/** The problem an error stands for, without the request it answered (a batch item's, an MCP tool result's). */
export function problemOf(error: AppError): Omit<Problem, 'request_id'> {
  const { status, title } = PROBLEM_STATUS[error.code];
  return { type: problemType(error.code), title, status, detail: error.detail, ...(error.details.errors ? { errors: error.details.errors } : {}) };
}

export function toProblem(error: AppError, requestId: string): Problem {
  const { errors, ...problem } = problemOf(error);
  return { ...problem, request_id: requestId, ...(errors ? { errors } : {}) };
}

/** The headers an error's details stand for. */
export function problemHeaders(error: AppError): Record<string, string> {
  const { retryAfterSeconds, challenge, requiredScopes, allowedMethods, bodyUnread } = error.details;
  const headers: Record<string, string> = {};
  if (retryAfterSeconds !== undefined) headers['Retry-After'] = String(retryAfterSeconds);
  if (error.code === 'unauthorized') {
    const parts = [`realm="${challenge?.realm ?? REALM}"`];
    if (challenge?.error) parts.push(`error="${challenge.error}"`);
    if (challenge?.resourceMetadata) parts.push(`resource_metadata="${challenge.resourceMetadata}"`);
    if (challenge?.scope) parts.push(`scope="${challenge.scope.join(' ')}"`);
    headers['WWW-Authenticate'] = `Bearer ${parts.join(', ')}`;
  }
  if (requiredScopes) {
    const parts = [`realm="${REALM}"`, 'error="insufficient_scope"', `scope="${requiredScopes.join(' ')}"`];
    if (challenge?.resourceMetadata) parts.push(`resource_metadata="${challenge.resourceMetadata}"`);
    headers['WWW-Authenticate'] = `Bearer ${parts.join(', ')}`;
  }
  if (allowedMethods) headers.Allow = allowedMethods.join(', ');
  if (bodyUnread) headers.Connection = 'close';
  return headers;
}

export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: 'urn:memory-bank:problem:not_found' }),
    title: z.string().openapi({ example: 'Not Found' }),
    status: z.number().int().openapi({ example: 404 }),
    detail: z.string().openapi({ example: 'Memory not found' }),
    request_id: z.string().openapi({ example: '01JD3W6Q8Z9K2M4N5P6R7S8T9V' }),
    errors: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .openapi({ description: 'Per-field problems of a 400 validation_failed.' }),
  })
  .openapi('Problem', { description: 'RFC 9457 problem details.' });

const DESCRIPTIONS: Record<number, string> = {
  400: 'The request is malformed or a field is out of its limits (`errors` names the fields).',
  401: 'Missing, unknown or revoked credentials. Carries `WWW-Authenticate: Bearer`.',
  403: 'The credentials are valid but lack the scope or role this operation needs.',
  404: 'No such resource for this caller (missing, malformed and foreign ids look the same).',
  405: 'Method not allowed.',
  408: 'The request body did not arrive within BODY_READ_TIMEOUT_MS; the connection is closed. Nothing was done: the request may be sent again.',
  409: 'The request conflicts with what exists.',
  412: 'If-Match names a version of the resource that is not the current one (re-read it: ETag).',
  413: 'The request body is larger than the limit.',
  415: 'The request body is not JSON.',
  422: 'This Idempotency-Key was used by this caller, within 24 hours, for a different request.',
  429: 'Rate limited: retry after `Retry-After` seconds. `RateLimit` says which limit refused.',
  431: 'The request line and headers are larger than the server accepts (16 KiB); the connection is closed.',
  500: 'An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it.',
  503: 'The database cannot be reached, did not answer in time (REQUEST_TIMEOUT_MS), or the server is busy with other requests’ bodies; retry after `Retry-After` seconds.',
};

const retryAfter = {
  description: 'Seconds to wait before retrying.',
  schema: { type: 'integer', minimum: 1 },
} as const;

/** Headers sent with a problem, by status. RateLimit is the IETF draft's structured field (see http/rate-limit.ts). */
const HEADERS: Partial<Record<number, Record<string, { description: string; schema: { type: 'integer' | 'string'; minimum?: number } }>>> = {
  429: {
    'Retry-After': retryAfter,
    RateLimit: { description: 'The limit that refused: `"key";r=0;t=<seconds until full>` (`key`, `user` or `org`).', schema: { type: 'string' } },
    'RateLimit-Policy': { description: 'Every limit this request draws on: `"key";q=<burst>;w=<seconds>, "org";q=…;w=…`.', schema: { type: 'string' } },
  },
  503: { 'Retry-After': retryAfter },
};

/** What any request can get: a request head too large for the server (see http/serve.ts), a bug, an unavailable database. */
const ALWAYS: Status[] = [431, 500, 503];

/** A status's problem response: description, headers, problem+json body. */
export function documentedProblem(status: Status) {
  return {
    description: DESCRIPTIONS[status] ?? 'Error',
    ...(HEADERS[status] ? { headers: HEADERS[status] } : {}),
    content: { 'application/problem+json': { schema: ProblemSchema } },
  };
}

/**
 * OpenAPI `responses` entries for the problems an operation can return, besides those every
 * operation can. A route that takes a body (413) also has a body-read deadline (408).
 */
export function problemResponses(...statuses: Status[]) {
  const withBody: Status[] = statuses.includes(413) ? [408] : [];
  return Object.fromEntries([...new Set([...statuses, ...withBody, ...ALWAYS])].sort((a, b) => a - b).map((status) => [status, documentedProblem(status)]));
}
