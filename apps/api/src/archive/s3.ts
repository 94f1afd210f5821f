import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { assertObjectKey, assertObjectPrefix } from './filesystem';
import { describeS3, normalizePrefix } from './s3-names';
import { ObjectConflictError, ObjectStoreError, type ObjectStore, type S3ObjectStoreOptions } from './object-store';

// 409 ConditionalRequestConflict means another conditional write to the key is in flight.
const MAX_PUT_ROUNDS = 4;
const CONFLICT_RECHECK_MS = [50, 150, 300];

/**
 * Objects in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, s3rver).
 *
 * Write-once: `PutObject` carries `If-None-Match: *`, which AWS S3, MinIO and R2 enforce
 * (412 when the key exists). Some servers (s3rver, older gateways) ignore the header and
 * would overwrite, so the driver first HEADs the key and compares bytes when it exists.
 * On such servers a residual race remains: two writers that both HEAD before either PUTs
 * both write and both succeed, last one wins. For the archive that is harmless: keys are
 * derived from the content's position in the log, so concurrent writers of a key carry
 * identical bytes (a writer of different bytes racing that narrowly would go unnoticed).
 *
 * Outage bound: every S3 call (retries included) ends within `operationTimeoutMs`; with
 * connections refused it fails in well under a second.
 */
export class S3ObjectStore implements ObjectStore {
  readonly description: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly operationTimeoutMs: number;
  private readonly pageSize: number;
  private readonly secrets: string[];

  constructor(options: S3ObjectStoreOptions) {
    this.bucket = options.bucket;
    this.prefix = normalizePrefix(options.prefix);
    this.operationTimeoutMs = options.operationTimeoutMs ?? 30_000;
    this.pageSize = Math.min(1000, Math.max(1, options.pageSize ?? 1000));
    this.secrets = options.credentials ? [options.credentials.accessKeyId, options.credentials.secretAccessKey] : [];
    const requestTimeout = options.requestTimeoutMs ?? 15_000;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      // The SDK's default (checksums on every request) streams bodies with aws-chunked
      // framing that non-AWS servers store verbatim, corrupting the object.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: options.maxAttempts ?? 3,
      requestHandler: {
        connectionTimeout: options.connectionTimeoutMs ?? 5_000,
        requestTimeout,
        // Without this the handler only logs a warning when requestTimeout passes.
        throwOnRequestTimeout: true,
        // Covers a body that stops flowing after the response headers arrived.
        socketTimeout: requestTimeout,
      },
    });
    this.description = describeS3(this.bucket, this.prefix, options.endpoint, options.region);
  }

  async putImmutable(key: string, body: Uint8Array, contentType: string): Promise<void> {
    assertObjectKey(key);
    for (let round = 1; round <= MAX_PUT_ROUNDS; round++) {
      const size = await this.headSize(key);
      if (size !== null) {
        const verdict = await this.compareExisting(key, body, size);
        if (verdict === 'same') return;
        if (verdict === 'different') throw new ObjectConflictError(key);
        continue; // deleted since the HEAD: try again
      }
      const outcome = await this.conditionalPut(key, body, contentType);
      if (outcome === 'created') return;
      if (outcome === 'exists') {
        const verdict = await this.compareExisting(key, body, undefined);
        if (verdict === 'same') return;
        if (verdict === 'different') throw new ObjectConflictError(key);
      } else {
        await sleep(100 * 2 ** round);
      }
    }
    throw new ObjectStoreError(`S3 PutObject ${key} kept colliding with concurrent writes`, 'PutObject', key, 'ConditionalRequestConflict', 409);
  }

  async get(key: string): Promise<Uint8Array | null> {
    assertObjectKey(key);
    const signal = this.deadline();
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }), { abortSignal: signal });
      if (!response.Body) return new Uint8Array();
      const bytes = await response.Body.transformToByteArray();
      // Without response checksums, a length check is the cheap guard against a truncated read.
      if (response.ContentLength !== undefined && bytes.byteLength !== response.ContentLength) {
        throw new ObjectStoreError(`S3 GetObject ${key} returned ${bytes.byteLength} of ${response.ContentLength} bytes`, 'GetObject', key, 'Truncated', undefined);
      }
      return bytes;
    } catch (error) {
      if (isNoSuchKey(error)) return null;
      throw this.wrap('GetObject', key, error);
    }
  }

  async list(prefix: string): Promise<string[]> {
    assertObjectPrefix(prefix);
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.send('ListObjectsV2', prefix, (abortSignal) =>
        this.client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix + prefix, MaxKeys: this.pageSize, ContinuationToken: token }),
          { abortSignal },
        ),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key?.startsWith(this.prefix)) keys.push(object.Key.slice(this.prefix.length));
      }
      if (page.IsTruncated && !page.NextContinuationToken) {
        throw new ObjectStoreError(`S3 ListObjectsV2 ${prefix} was truncated without a continuation token`, 'ListObjectsV2', prefix, 'BadPagination', undefined);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  async delete(key: string): Promise<void> {
    assertObjectKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }), { abortSignal: this.deadline() });
    } catch (error) {
      if (isNoSuchKey(error)) return;
      throw this.wrap('DeleteObject', key, error);
    }
  }

  /** Releases pooled sockets; the store is unusable afterwards. */
  async close(): Promise<void> {
    this.client.destroy();
  }

  private async headSize(key: string): Promise<number | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }), { abortSignal: this.deadline() });
      return head.ContentLength ?? -1;
    } catch (error) {
      // HEAD has no body, so a missing bucket also reads as 404; the PUT that follows reports it properly.
      if (isNoSuchKey(error)) return null;
      throw this.wrap('HeadObject', key, error);
    }
  }

  /**
   * Servers without atomic overwrites (s3rver truncates the file in place) can show a torn
   * object while a concurrent writer of the same bytes is mid-write, so a difference is
   * only believed once it has been seen again a little later. Real conflicts pay ~0.5 s;
   * on AWS/MinIO/R2 the first read is already final.
   */
  private async compareExisting(key: string, body: Uint8Array, size: number | undefined): Promise<'same' | 'different' | 'missing'> {
    let verdict = await this.compareOnce(key, body, size);
    for (const pause of CONFLICT_RECHECK_MS) {
      if (verdict !== 'different') return verdict;
      await sleep(pause);
      verdict = await this.compareOnce(key, body, undefined);
    }
    return verdict;
  }

  private async compareOnce(key: string, body: Uint8Array, size: number | undefined): Promise<'same' | 'different' | 'missing'> {
    if (size !== undefined && size >= 0 && size !== body.byteLength) return 'different';
    const existing = await this.get(key);
    if (existing === null) return 'missing';
    return Buffer.from(existing.buffer, existing.byteOffset, existing.byteLength).equals(body) ? 'same' : 'different';
  }

  private async conditionalPut(key: string, body: Uint8Array, contentType: string): Promise<'created' | 'exists' | 'busy'> {
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.prefix + key,
          Body: body,
          ContentType: contentType,
          // The server rejects the write if the bytes were damaged on the way (BadDigest).
          ContentMD5: createHash('md5').update(body).digest('base64'),
          IfNoneMatch: '*',
        }),
        { abortSignal: this.deadline() },
      );
      return 'created';
    } catch (error) {
      const { code, status } = describeError(error);
      if (status === 412 || code === 'PreconditionFailed') return 'exists';
      if (status === 409 && code === 'ConditionalRequestConflict') return 'busy';
      throw this.wrap('PutObject', key, error);
    }
  }

  private async send<T>(operation: string, key: string, run: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
    try {
      return await run(this.deadline());
    } catch (error) {
      throw this.wrap(operation, key, error);
    }
  }

  private deadline(): AbortSignal {
    return AbortSignal.timeout(this.operationTimeoutMs);
  }

  private wrap(operation: string, key: string, error: unknown): Error {
    if (error instanceof ObjectStoreError || error instanceof ObjectConflictError) return error;
    const { code, status, message } = describeError(error);
    let text = `S3 ${operation} ${key === '' ? '(everything)' : key} failed: ${code}${status ? ` (HTTP ${status})` : ''}${message ? `: ${message}` : ''}`;
    for (const secret of this.secrets) if (secret) text = text.split(secret).join('[redacted]');
    return new ObjectStoreError(text, operation, key, code, status);
  }
}

function describeError(error: unknown): { code: string; status: number | undefined; message: string } {
  if (typeof error !== 'object' || error === null) return { code: 'Unknown', status: undefined, message: String(error) };
  const record = error as { name?: unknown; code?: unknown; message?: unknown; $metadata?: { httpStatusCode?: unknown } };
  const status = typeof record.$metadata?.httpStatusCode === 'number' ? record.$metadata.httpStatusCode : undefined;
  // Network errors carry the useful part in `code` (the SDK renames ECONNRESET & co. to
  // TimeoutError), service errors in `name` (NoSuchKey, AccessDenied…).
  const errnoCode = typeof record.code === 'string' && /^E[A-Z_]+$/.test(record.code) ? record.code : undefined;
  const name = typeof record.name === 'string' && record.name !== 'Error' ? record.name : undefined;
  const message = typeof record.message === 'string' ? record.message.slice(0, 300) : '';
  return { code: errnoCode ?? name ?? 'Error', status, message };
}

function isNoSuchKey(error: unknown): boolean {
  const { code, status } = describeError(error);
  return code === 'NoSuchKey' || code === 'NotFound' || (status === 404 && code !== 'NoSuchBucket');
}

