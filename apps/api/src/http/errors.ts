import { isDatabaseUnavailable } from '@memory-bank/db';
import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { AppError, isServerFault, type ErrorCode } from '../errors';
import { errorForLog } from '../logger';
import type { AppEnv } from './env';
import { problemHeaders, statusOf, toProblem } from './problems';

/** Seconds a client should wait before retrying while the database is away. */
const RETRY_AFTER_SECONDS = 5;

const HTTP_EXCEPTION_CODES: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/** Hono's own exceptions (malformed JSON, wrong media type, body limit) as AppErrors. */
function fromHttpException(error: HTTPException): AppError {
  const code = HTTP_EXCEPTION_CODES[error.status];
  if (!code) return new AppError('internal', 'Unexpected error', { cause: error });
  const detail =
    code === 'payload_too_large'
      ? 'The request body is larger than the limit'
      : code === 'unsupported_media_type'
        ? 'The request body must be application/json'
        : error.message || 'Bad request';
  return new AppError(code, detail);
}

/** 503 with Retry-After: a dependency (the database) is away for now. */
export function unavailable(detail: string, cause?: unknown): AppError {
  return new AppError('unavailable', detail, { retryAfterSeconds: RETRY_AFTER_SECONDS, cause });
}

/** Whatever was thrown, as the AppError the client will see. */
export function asAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof HTTPException) return fromHttpException(error);
  if (isDatabaseUnavailable(error)) return unavailable('The database is unavailable; retry shortly', error);
  return new AppError('internal', 'An unexpected error occurred', { cause: error });
}

/** Renders an AppError as application/problem+json. */
export function problemResponse(c: Context<AppEnv>, error: AppError): Response {
  c.get('metrics')?.problem(error.code);
  return c.body(JSON.stringify(toProblem(error, c.get('requestId'))), statusOf(error), {
    ...problemHeaders(error),
    'Content-Type': 'application/problem+json',
  });
}

export const onError: ErrorHandler<AppEnv> = (thrown, c) => {
  const error = asAppError(thrown);
  if (isServerFault(error)) {
    // The cause goes to the log (with the request id), never to the client.
    c.get('logger')?.error({ error: errorForLog(error.details.cause ?? error), req_id: c.get('requestId') }, error.detail);
  }
  return problemResponse(c, error);
};
