import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { openObjectStore, type ArchiveSettings, type OpenedObjectStore } from '../../src/archive';
import { startTcpProxy } from './tcp-proxy';

/**
 * A real S3 server (s3rver) for tests, in a fresh temp directory, behind a TCP proxy so a
 * test can take the object store away and bring it back.
 *
 *   const s3 = await startTestS3();
 *   const store = openObjectStore(s3.settings('archive'));   // or startTestServer({ env: s3.env('archive') })
 *   s3.setDown(true);            // outage: connections refused (setDown(true, 'blackhole'): they hang)
 *   s3.setDown(false);           // recovery: the next request works, no stale sockets left behind
 *   await s3.restart();          // the server process itself dies and comes back (same port, same objects)
 *   await s3.listKeys();         // full keys in the bucket, bypassing the proxy (works during an outage)
 *   await store.close(); await s3.stop();
 *
 * `endpoint` is the proxy's; everything written goes to the same s3rver directory, so an
 * outage or restart by itself loses nothing.
 *
 * s3rver runs in a child process started with --openssl-legacy-provider: it encrypts list
 * continuation tokens with DES, which OpenSSL 3 only has in the legacy provider, so any
 * truncated listing (more keys than MaxKeys, 1000 by default) fails with InternalError
 * in-process. The child exits when the test process goes away (IPC disconnect).
 */
export interface TestS3 {
  /** The S3 endpoint clients should use (through the outage proxy). */
  endpoint: string;
  /** s3rver itself, bypassing the proxy. */
  directEndpoint: string;
  bucket: string;
  /** s3rver's backing directory. */
  directory: string;
  /** Archive settings for `s3://<bucket>[/<prefix>]` through the proxy. */
  settings(prefix?: string): ArchiveSettings;
  /** The same as environment variables, for a server started with `env`. */
  env(prefix?: string): Record<string, string>;
  /** true: outage ('refuse' cuts and refuses connections, 'blackhole' accepts and stalls them); false: recovery. */
  setDown(down: boolean, how?: 'refuse' | 'blackhole'): void;
  /** Kills the s3rver process and starts a new one on the same port and directory. */
  restart(): Promise<void>;
  /** Every key in the bucket (prefix included), sorted, read directly from s3rver. */
  listKeys(prefix?: string): Promise<string[]>;
  /** A store that bypasses the proxy, e.g. to inspect objects during an outage. */
  directStore(prefix?: string): OpenedObjectStore;
  stop(): Promise<void>;
}

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }; // the only pair s3rver accepts

const CHILD = `
const S3rver = require(process.env.S3RVER_MODULE);
process.on('disconnect', () => process.exit(0));
new S3rver({ address: '127.0.0.1', port: Number(process.env.S3RVER_PORT), directory: process.env.S3RVER_DIRECTORY, silent: true })
  .run()
  .then(({ port }) => process.send({ port }), (error) => { process.send({ error: String(error) }); process.exit(1); });
`;

async function spawnS3rver(directory: string, port: number): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', CHILD], {
    env: { ...process.env, S3RVER_MODULE: createRequire(import.meta.url).resolve('s3rver'), S3RVER_PORT: String(port), S3RVER_DIRECTORY: directory },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [message] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => [{ error: `exited with ${String(code)}` }]),
  ])) as [{ port?: number; error?: string }];
  if (message.port === undefined) {
    child.kill('SIGKILL');
    throw new Error(`s3rver did not start: ${message.error ?? 'no port'}`);
  }
  return { child, port: message.port };
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

export async function startTestS3(options: { bucket?: string } = {}): Promise<TestS3> {
  const bucket = options.bucket ?? 'memory-bank-test';
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  let { child, port } = await spawnS3rver(directory, 0);
  const directEndpoint = `http://127.0.0.1:${port}`;
  const proxy = await startTcpProxy({ host: '127.0.0.1', port });
  const endpoint = `http://127.0.0.1:${proxy.port}`;

  const admin = new S3Client({
    endpoint: directEndpoint,
    region: 'us-east-1',
    credentials: CREDENTIALS,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  admin.destroy();

  const settingsFor = (prefix: string | undefined, via: string): ArchiveSettings => ({
    ARCHIVE_URL: `s3://${bucket}${prefix ? `/${prefix}` : ''}`,
    S3_ENDPOINT: via,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    S3_FORCE_PATH_STYLE: true,
  });
  const direct: OpenedObjectStore[] = [];
  const directStore = (prefix?: string) => {
    const store = openObjectStore(settingsFor(prefix, directEndpoint));
    direct.push(store);
    return store;
  };
  let whole: OpenedObjectStore | undefined;

  return {
    endpoint,
    directEndpoint,
    bucket,
    directory,
    settings: (prefix) => settingsFor(prefix, endpoint),
    env(prefix) {
      const settings = settingsFor(prefix, endpoint);
      return {
        ARCHIVE_URL: settings.ARCHIVE_URL,
        S3_ENDPOINT: endpoint,
        S3_REGION: settings.S3_REGION,
        S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
        S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      };
    },
    setDown(next, how = 'refuse') {
      // Passing through 'refuse' cuts every open connection: entering a blackhole must not
      // leave live keep-alive sockets, and leaving one must not leave stalled sockets that
      // a client would reuse after recovery (the proxy never re-pipes them).
      proxy.setMode('refuse');
      if (!next) proxy.setMode('forward');
      else if (how === 'blackhole') proxy.setMode('blackhole');
    },
    async restart() {
      await kill(child);
      ({ child } = await spawnS3rver(directory, port));
    },
    listKeys: (prefix = '') => (whole ??= directStore()).list(prefix),
    directStore,
    async stop() {
      for (const store of direct) await store.close();
      await proxy.close();
      await kill(child);
      await rm(directory, { recursive: true, force: true });
    },
  };
}
