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
