import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { IDEMPOTENT_OPERATIONS } from './generated/idempotent-operations.js';
import type { paths } from './generated/schema.js';
import { createTransfer } from './transfer.js';
import { createTransport, type Send, type TransportOptions } from './transport.js';

export interface MemoryBankClientOptions extends TransportOptions {
  /** The service's origin, e.g. `https://memory.example.com` (default: the page's origin in a browser). */
  baseUrl?: string;
}

type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** GET operations paged by `cursor` → `next_cursor`. */
export type CursorPath = {
  [P in keyof paths]: paths[P] extends { get: infer O }
    ? 'cursor' extends keyof QueryOf<O>
      ? O extends { responses: { 200: infer R } }
        ? JsonOf<R> extends { next_cursor: string | null }
          ? P
          : never
        : never
      : never
    : never;
}[keyof paths];

type GetOf<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never;
/** One page of a cursor-paged operation. */
export type PageOf<P extends CursorPath> = GetOf<P> extends { responses: { 200: infer R } } ? JsonOf<R> : never;
type PageParams<P extends CursorPath> = { query?: Omit<QueryOf<GetOf<P>>, 'cursor'> } & (GetOf<P> extends { parameters: { path: infer T } }
  ? { path: T }
  : { path?: never });

export interface MemoryBankClient extends Client<paths>, ReturnType<typeof createTransfer> {
  /** Every page of a cursor-paged list, fetched as the loop asks for it. */
  pages<P extends CursorPath>(path: P, params?: PageParams<P>, init?: { signal?: AbortSignal }): AsyncGenerator<PageOf<P>, void, undefined>;
  /** The transport every call goes through (auth, retries, typed errors), for requests outside the typed layer. */
  readonly send: Send;
  readonly baseUrl: string;
}

/** A UUID v4 from getRandomValues (randomUUID needs a secure context in browsers). */
function randomKey(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** One key per logical call, set before the transport's retries, so every retry carries it. */
const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (IDEMPOTENT_OPERATIONS.has(`${request.method} ${schemaPath}`) && !request.headers.has('idempotency-key')) {
      request.headers.set('idempotency-key', randomKey());
    }
    return request;
  },
};

function defaultBaseUrl(): string {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  if (!origin) throw new Error('baseUrl is required outside a browser page');
  return origin;
}

/**
 * The Memory Bank API, typed from its OpenAPI document (openapi-fetch). Every non-2xx answer
 * throws a MemoryBankError; 429 and 503 are retried as the answer's Retry-After says.
 */
export function createMemoryBankClient(options: MemoryBankClientOptions = {}): MemoryBankClient {
  const baseUrl = (options.baseUrl ?? defaultBaseUrl()).replace(/\/+$/, '');
  const send = createTransport(options);
  const client = createClient<paths>({ baseUrl, fetch: (request) => send(request) });
  client.use(idempotencyKeys);

  async function* pages<P extends CursorPath>(path: P, params?: PageParams<P>, init: { signal?: AbortSignal } = {}) {
    let cursor: string | undefined;
    do {
      const query = { ...params?.query, ...(cursor !== undefined ? { cursor } : {}) };
      // The path is one of the cursor-paged GETs; openapi-fetch cannot see that through the generic.
      const { data } = await (client.GET as (path: string, init: object) => Promise<{ data?: unknown }>)(path, {
        params: { ...params, query },
        ...(init.signal ? { signal: init.signal } : {}),
      });
      const page = data as PageOf<P>;
      yield page;
      cursor = (page as { next_cursor: string | null }).next_cursor ?? undefined;
    } while (cursor !== undefined);
  }

  return Object.assign(client, { pages, send, baseUrl }, createTransfer(send, baseUrl));
}

/** The data of a call that succeeded (every failure already threw MemoryBankError). */
export async function ok<R extends { data?: unknown }>(call: Promise<R>): Promise<Exclude<R['data'], undefined>> {
  return (await call).data as Exclude<R['data'], undefined>;
}
