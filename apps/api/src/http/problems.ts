import { z } from '@hono/zod-openapi';
import { ERROR_CODES, type ErrorCode } from '../errors';

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
  409: 'The request conflicts with what exists.',
  412: 'If-Match names a version of the resource that is not the current one (re-read it: ETag).',
  413: 'The request body is larger than the limit.',
  415: 'The request body is not JSON.',
  422: 'This Idempotency-Key was used by this caller, within 24 hours, for a different request.',
  429: 'Rate limited; see `Retry-After`.',
  500: 'An unexpected error; nothing internal is disclosed. Quote `request_id` when reporting it.',
  503: 'The database cannot be reached right now; retry after `Retry-After` seconds.',
};

type Status = (typeof ERROR_CODES)[ErrorCode]['status'];

/** OpenAPI `responses` entries for the problems an operation can return. */
export function problemResponses(...statuses: Status[]) {
  const always: Status[] = [500, 503];
  return Object.fromEntries(
    [...new Set([...statuses, ...always])].map((status) => [
      status,
      {
        description: DESCRIPTIONS[status] ?? 'Error',
        content: { 'application/problem+json': { schema: ProblemSchema } },
      },
    ]),
  );
}
