/**
 * The one error type of the service. Each code maps to one HTTP status; every error a
 * client sees is rendered from one of these as RFC 9457 application/problem+json.
 */
export const ERROR_CODES = {
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
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export type ErrorStatus = (typeof ERROR_CODES)[ErrorCode]['status'];

export interface FieldError {
  /** Dotted path of the offending field, e.g. `contexts.3.snippet`. */
  path: string;
  message: string;
}

export class AppError extends Error {
  override name = 'AppError';
  readonly status: ErrorStatus;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly options: { errors?: FieldError[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(detail, { cause: options.cause });
    this.status = ERROR_CODES[code].status;
  }
}

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

/** The problem an error stands for, without the request it answered (a batch item's, an MCP tool result's). */
export function problemOf(error: AppError): Omit<Problem, 'request_id'> {
  return {
    type: problemType(error.code),
    title: ERROR_CODES[error.code].title,
    status: error.status,
    detail: error.detail,
    ...(error.options.errors ? { errors: error.options.errors } : {}),
  };
}

export function toProblem(error: AppError, requestId: string): Problem {
  const { errors, ...problem } = problemOf(error);
  return { ...problem, request_id: requestId, ...(errors ? { errors } : {}) };
}

/** The 404 every missing, foreign or malformed id gets: the same body whatever the reason. */
export function notFound(what: string): AppError {
  return new AppError('not_found', `${what} not found`);
}
