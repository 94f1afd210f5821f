import type { Hook } from '@hono/zod-openapi';
import { AppError, type FieldError } from '../errors';
import type { AppEnv } from './env';
import { MAX_JSON_DEPTH, prepareJsonInput } from './json-input';

/**
 * Every zod validation failure becomes one 400 problem naming the fields. A valid JSON
 * body is then readied for storage (see prepareJsonInput), or refused when it nests too
 * deeply.
 */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (result.success) {
    const tooDeep = result.target === 'json' ? prepareJsonInput(result.data) : null;
    if (tooDeep !== null) {
      throw new AppError('validation_failed', `Invalid request: ${tooDeep}: Nested more than ${MAX_JSON_DEPTH} levels deep`, {
        errors: [{ path: tooDeep, message: `Nested more than ${MAX_JSON_DEPTH} levels deep` }],
      });
    }
    return;
  }
  const errors: FieldError[] = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || result.target,
    message: issue.message,
  }));
  const detail = errors.map((error) => `${error.path}: ${error.message}`).join('; ');
  throw new AppError('validation_failed', `Invalid request: ${detail}`, { errors });
};
