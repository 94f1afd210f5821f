/**
 * The one error type of the service. Services, adapters and the edge all throw it with a
 * code from a closed set and details in the domain's terms; only the edge (http/problems.ts)
 * turns a code into an HTTP status and the details into headers, and every error a client
 * sees is rendered from one of these as RFC 9457 application/problem+json.
 */
export const ERROR_CODES = [
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'quota_exceeded',
  'request_timeout',
  'precondition_failed',
  'payload_too_large',
  'unsupported_media_type',
  'idempotency_key_reused',
  'header_fields_too_large',
  'rate_limited',
  'internal',
  'unavailable',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldError {
  /** Dotted path of the offending field, e.g. `contexts.3.snippet`. */
  path: string;
  message: string;
}

/** What an error says besides its code and text, for the edge to render. */
export interface ErrorDetails {
  /** Per-field problems (validation_failed). */
  errors?: FieldError[];
  /** Seconds after which the same request may succeed (unavailable, rate_limited). */
  retryAfterSeconds?: number;
  /** An `unauthorized` caller's challenge: why the credential was refused, and where to learn how to get one. */
  challenge?: { realm?: string; error?: 'invalid_token'; resourceMetadata?: string; scope?: readonly string[] };
  /** The scopes the operation needs, of which the credential lacks some (forbidden). */
  requiredScopes?: readonly string[];
  /** The methods the resource takes (method_not_allowed). */
  allowedMethods?: readonly string[];
  /** The request's body was not read to its end: the connection cannot carry another request. */
  bodyUnread?: boolean;
}

export class AppError extends Error {
  override name = 'AppError';

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly details: ErrorDetails & { cause?: unknown } = {},
  ) {
    super(detail, { cause: details.cause });
  }
}

/** The 404 every missing, foreign or malformed id gets: the same body whatever the reason. */
export function notFound(what: string): AppError {
  return new AppError('not_found', `${what} not found`);
}

/** A credential that lacks one of `scopes` (RFC 6750 insufficient_scope). */
export function insufficientScope(scopes: readonly string[], missing: readonly string[] = scopes, resourceMetadata?: string): AppError {
  return new AppError('forbidden', `This ${resourceMetadata ? 'access token' : 'API key'} lacks the scope ${missing.join(', ')}`, {
    requiredScopes: scopes,
    ...(resourceMetadata && { challenge: { resourceMetadata } }),
  });
}

/** Errors of the server or what it depends on, not of the request: never a refusal of one item among many. */
export function isServerFault(error: AppError): boolean {
  return error.code === 'internal' || error.code === 'unavailable';
}
