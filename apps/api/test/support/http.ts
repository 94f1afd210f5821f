import { expect } from 'vitest';
import type { Call } from './openapi-routes';

export type { Answer, RequestBody } from './openapi-routes';

/** A small HTTP client for tests: real requests, parsed answers. */
export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  /** Sent as-is instead of JSON.stringify(body): malformed JSON, NDJSON, bytes. */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

/** Any request, unchecked against the document: for paths it does not describe (/metrics, OPTIONS, unknown routes). */
export async function request<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<TestResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | Uint8Array | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(baseUrl + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  if (/^application\/([\w.-]+\+)?json\b/.test(response.headers.get('content-type') ?? '') && text) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

type UncheckedCall = (path: string, options?: RequestOptions) => Promise<TestResponse>;

/** A client bound to one server and one key, typed from the OpenAPI document. */
export function client(baseUrl: string, key?: string | null) {
  const call =
    (method: string): UncheckedCall =>
    (path, options = {}) =>
      request(baseUrl, method, path, { key, ...options });
  return {
    get: call('GET') as Call<'get'>,
    post: call('POST') as Call<'post'>,
    patch: call('PATCH') as Call<'patch'>,
    delete: call('DELETE') as Call<'delete'>,
    /** The escape for deliberately invalid requests (unknown fields, wrong types, undocumented routes): nothing checked, `body` untyped. */
    unchecked: { get: call('GET'), post: call('POST'), patch: call('PATCH'), delete: call('DELETE'), put: call('PUT') },
  };
}
export type Client = ReturnType<typeof client>;

type WithStatus<R extends { status: number }, S> = number extends R['status'] ? R : Extract<R, { status: S }>;

/** Checks the status; TypeScript then knows the body the document gives for it. */
export function expectStatus<R extends { status: number; text: string }, S extends R['status']>(res: R, status: S): asserts res is WithStatus<R, S> {
  expect(res.status, res.text.slice(0, 2000)).toBe(status);
}

/** The body of an answer that must have `status`, for one-liners. */
export function bodyOf<R extends { status: number; text: string; body: unknown }, S extends R['status']>(res: R, status: S): WithStatus<R, S>['body'] {
  expectStatus(res, status);
  return res.body;
}
