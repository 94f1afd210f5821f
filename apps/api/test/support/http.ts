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
  /** Sent as-is instead of JSON.stringify(body). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

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

/** A client bound to one server and one key. */
export function client(baseUrl: string, key?: string | null) {
  const call = (method: string) => <T = any>(path: string, options: Omit<RequestOptions, 'key'> & { key?: string | null } = {}) =>
    request<T>(baseUrl, method, path, { key, ...options });
  return { get: call('GET'), post: call('POST'), patch: call('PATCH'), delete: call('DELETE'), put: call('PUT') };
}
export type Client = ReturnType<typeof client>;
