/** The RFC 9457 problem body the service answers every error with. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  request_id?: string;
  errors?: { path: string; message: string }[];
}

const PROBLEM_TYPE_PREFIX = 'urn:memory-bank:problem:';

/** A non-2xx answer of the service: its problem+json, typed. */
export class MemoryBankError extends Error {
  override readonly name = 'MemoryBankError';
  readonly status: number;
  /** The problem's stable code (`not_found`, `rate_limited`, …), or `http_<status>` when the body was not problem+json. */
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly requestId: string | undefined;
  /** Per-field problems of a 400 `validation_failed`. */
  readonly errors: { path: string; message: string }[];
  /** The answer's `Retry-After`, in seconds, when it sent one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, problem: Partial<Problem> | null, retryAfterSeconds?: number) {
    const title = problem?.title ?? `HTTP ${status}`;
    const detail = problem?.detail ?? title;
    super(`${status} ${title}: ${detail}`);
    this.status = status;
    this.code = problem?.type?.startsWith(PROBLEM_TYPE_PREFIX) ? problem.type.slice(PROBLEM_TYPE_PREFIX.length) : `http_${status}`;
    this.title = title;
    this.detail = detail;
    this.requestId = problem?.request_id;
    this.errors = problem?.errors ?? [];
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Seconds from a `Retry-After` header (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The error a non-2xx response stands for (reads its body). */
export async function errorFromResponse(response: Response): Promise<MemoryBankError> {
  let problem: Partial<Problem> | null = null;
  if (/json/i.test(response.headers.get('content-type') ?? '')) {
    try {
      const body: unknown = await response.json();
      if (body && typeof body === 'object') problem = body as Partial<Problem>;
    } catch {
      // Not JSON after all: the status alone describes it.
    }
  } else {
    await response.body?.cancel();
  }
  return new MemoryBankError(response.status, problem, retryAfterSeconds(response.headers.get('retry-after')));
}
