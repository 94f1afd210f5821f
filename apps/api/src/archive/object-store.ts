/**
 * Immutable object storage for the hook archive, behind one small interface with two
 * drivers (local filesystem and S3-compatible). Keys are `/`-separated paths such as
 * `orgs/org_…/workstreams/ws_…/segments/0000000000000001-0000000000000256.jsonl`.
 */
export interface ObjectStore {
  /**
   * Creates `key` with `body`; never overwrites. If the key already exists with the same
   * bytes the call succeeds (a retried or concurrent identical write); with different
   * bytes it throws ObjectConflictError.
   */
  putImmutable(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** The object's bytes, or null when it does not exist. */
  get(key: string): Promise<Uint8Array | null>;
  /** Every key under `prefix` (a folder-like prefix ending in `/`), sorted. */
  list(prefix: string): Promise<string[]>;
  /** Deletes `key`; deleting a missing key succeeds. */
  delete(key: string): Promise<void>;
  /** A description safe for logs (driver and location, never credentials). */
  readonly description: string;
}

export class ObjectConflictError extends Error {
  override name = 'ObjectConflictError';
  constructor(readonly key: string) {
    super(`Object ${key} already exists with different content`);
  }
}

/** Knobs with safe defaults; tests shrink them, production rarely needs to. */
export interface S3Tuning {
  /** TCP connect deadline per attempt. Default 5 s. */
  connectionTimeoutMs?: number;
  /** Deadline for one attempt, and for any stall while streaming a body. Default 15 s. */
  requestTimeoutMs?: number;
  /** Attempts per request, first included (SDK retries with backoff on 5xx, throttling, network errors). Default 3. */
  maxAttempts?: number;
  /** Hard deadline for one S3 call, all retries included. Default 30 s. */
  operationTimeoutMs?: number;
  /** ListObjectsV2 page size (1..1000). Default 1000. */
  pageSize?: number;
}

export interface S3ObjectStoreOptions extends S3Tuning {
  bucket: string;
  /** Key prefix inside the bucket, e.g. `archive` from `s3://bucket/archive`. */
  prefix?: string;
  /** For MinIO, R2, s3rver…; AWS when absent. */
  endpoint?: string;
  region: string;
  /** Absent: the SDK's default chain (env, profile, instance/task role…). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  forcePathStyle?: boolean;
}

/**
 * An S3 call failed. The message names the operation, key and S3 error code only: SDK
 * errors carry the raw response (and fields such as the access key id that some servers
 * echo), so they are never attached as `cause`.
 */
export class ObjectStoreError extends Error {
  override name = 'ObjectStoreError';
  constructor(
    message: string,
    readonly operation: string,
    readonly key: string,
    /** The S3 error code or Node error name, e.g. `AccessDenied`, `TimeoutError`, `ECONNREFUSED`. */
    readonly code: string,
    readonly status: number | undefined,
  ) {
    super(message);
  }
}
