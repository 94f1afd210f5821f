import type { Hook } from '@hono/zod-openapi';
import { AppError, type FieldError } from '../errors';
import type { AppEnv } from './env';

/** Every zod validation failure becomes one 400 problem naming the fields. */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (result.success) return;
  const errors: FieldError[] = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || result.target,
    message: issue.message,
  }));
  const detail = errors.map((error) => `${error.path}: ${error.message}`).join('; ');
  throw new AppError('validation_failed', `Invalid request: ${detail}`, { errors });
};
