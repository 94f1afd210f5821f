import { isAbsolute, resolve } from 'node:path';
import { FilesystemObjectStore } from './filesystem';
import type { ObjectStore, S3ObjectStoreOptions, S3Tuning } from './object-store';
import { describeS3, normalizePrefix } from './s3-names';

export { ObjectConflictError, ObjectStoreError, type ObjectStore, type S3Tuning } from './object-store';

/** A store whose driver is loaded on first use. */
function lazyStore(label: string, load: () => Promise<OpenedObjectStore>): OpenedObjectStore {
  let loaded: Promise<OpenedObjectStore> | undefined;
  const store = () => (loaded ??= load());
  return {
    description: label,
    putImmutable: async (key, body, contentType) => (await store()).putImmutable(key, body, contentType),
    get: async (key) => (await store()).get(key),
    list: async (prefix) => (await store()).list(prefix),
    delete: async (key) => (await store()).delete(key),
    close: async () => (loaded ? (await loaded).close() : undefined),
  };
}

/** The archive fields of the validated config (same names as in `Config`). */
export interface ArchiveSettings {
  ARCHIVE_URL: string;
  S3_ENDPOINT?: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_FORCE_PATH_STYLE: boolean;
}

/** An opened store; `close()` releases its connections (a no-op for the filesystem). */
export type OpenedObjectStore = ObjectStore & { close(): Promise<void> };

/**
 * `file://./data/archive` (relative to the working directory), `file:///var/lib/archive`,
 * or `s3://bucket[/prefix]`. The path after `file://` is taken literally (no %-decoding).
 * `tuning` only applies to S3 (timeouts, retries, list page size).
 */
export function openObjectStore(settings: ArchiveSettings, tuning: S3Tuning = {}): OpenedObjectStore {
  const url = settings.ARCHIVE_URL;
  if (url.startsWith('file://')) {
    const path = url.slice('file://'.length);
    if (path === '') throw new Error('ARCHIVE_URL: file:// needs a directory, e.g. file://./data/archive');
    return new FilesystemObjectStore(isAbsolute(path) ? path : resolve(process.cwd(), path));
  }
  if (url.startsWith('s3://')) {
    const rest = url.slice('s3://'.length);
    const slash = rest.indexOf('/');
    const bucket = slash === -1 ? rest : rest.slice(0, slash);
    const prefix = slash === -1 ? '' : rest.slice(slash + 1);
    if (bucket === '') throw new Error('ARCHIVE_URL: s3:// needs a bucket, e.g. s3://my-bucket/archive');
    const accessKeyId = settings.S3_ACCESS_KEY_ID;
    const secretAccessKey = settings.S3_SECRET_ACCESS_KEY;
    if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
      throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the default credential chain)');
    }
    const options: S3ObjectStoreOptions = {
      ...tuning,
      bucket,
      prefix,
      region: settings.S3_REGION,
      forcePathStyle: settings.S3_FORCE_PATH_STYLE,
      ...(settings.S3_ENDPOINT ? { endpoint: settings.S3_ENDPOINT } : {}),
      ...(accessKeyId !== undefined && secretAccessKey !== undefined ? { credentials: { accessKeyId, secretAccessKey } } : {}),
    };
    // The AWS SDK is the heaviest import of the service: load it only when S3 is used.
    // Checked and described now; the driver itself loads with the first operation.
    const description = describeS3(bucket, normalizePrefix(prefix), settings.S3_ENDPOINT, settings.S3_REGION);
    return lazyStore(description, () => import('./s3').then(({ S3ObjectStore }) => new S3ObjectStore(options)));
  }
  throw new Error('ARCHIVE_URL must be file://<directory> or s3://<bucket>[/<prefix>]');
}
