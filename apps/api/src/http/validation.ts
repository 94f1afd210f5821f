import type { Hook } from '@hono/zod-openapi';
import type { z } from 'zod';
import { AppError, type FieldError } from '../errors';
import type { AppEnv } from './env';
import { MAX_JSON_DEPTH, prepareJsonInput } from './json-input';

/** One 400 problem naming every field zod refused. */
function validationFailed(issues: readonly z.core.$ZodIssue[], target: string): AppError {
  const errors: FieldError[] = issues.map((issue) => ({
    path: issue.path.map(String).join('.') || target,
    message: issue.message,
  }));
  const detail = errors.map((error) => `${error.path}: ${error.message}`).join('; ');
  return new AppError('validation_failed', `Invalid request: ${detail}`, { errors });
}

/** Readies a valid JSON body for storage (see prepareJsonInput), or refuses it when it nests too deeply. */
function readyJsonBody(data: unknown): void {
  const tooDeep = prepareJsonInput(data);
  if (tooDeep !== null) {
    throw new AppError('validation_failed', `Invalid request: ${tooDeep}: Nested more than ${MAX_JSON_DEPTH} levels deep`, {
      errors: [{ path: tooDeep, message: `Nested more than ${MAX_JSON_DEPTH} levels deep` }],
    });
  }
}

/**
 * Every zod validation failure becomes one 400 problem naming the fields. A valid JSON
 * body is then readied for storage (see prepareJsonInput), or refused when it nests too
 * deeply.
 */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (!result.success) throw validationFailed(result.error.issues, result.target);
  if (result.target === 'json') readyJsonBody(result.data);
};

/** A JSON value checked exactly as a route's JSON body is (an import's lines): the data, or the same AppError. */
export function validJson<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationFailed(result.error.issues, 'json');
  readyJsonBody(result.data);
  return result.data;
}
