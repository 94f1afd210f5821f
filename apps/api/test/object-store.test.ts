import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ObjectConflictError, ObjectStoreError, openObjectStore, type OpenedObjectStore, type S3Tuning } from '../src/archive';
import { startTestS3, type TestS3 } from './support/s3';

let s3: TestS3;
const tempDirs: string[] = [];
const opened: OpenedObjectStore[] = [];
let run = 0;

beforeAll(async () => {
  s3 = await startTestS3();
});
afterEach(async () => {
  s3.setDown(false);
  while (opened.length) await opened.pop()?.close();
});
afterAll(async () => {
  await s3.stop();
  for (const dir of tempDirs) await rm(dir, { recursive: true, force: true });
});

const track = (store: OpenedObjectStore) => {
  opened.push(store);
  return store;
};
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'archive-'));
  tempDirs.push(dir);
  return dir;
};
const fileSettings = (dir: string) => ({ ARCHIVE_URL: `file://${dir}`, S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: false });

/** Each test gets an empty store: a fresh directory, or a fresh key prefix in the bucket. */
const drivers: { name: string; open(tuning?: S3Tuning): Promise<OpenedObjectStore> }[] = [
  { name: 'filesystem', open: async () => track(openObjectStore(fileSettings(await tempDir()))) },
  { name: 's3', open: async (tuning) => track(openObjectStore(s3.settings(`contract-${++run}`), tuning)) },
];

const WS = 'orgs/org_01ABC/workstreams/ws_01DEF';
const segment = (n: number) => `${WS}/segments/${String(n * 256 - 255).padStart(16, '0')}-${String(n * 256).padStart(16, '0')}.jsonl`;
const text = (value: string) => new TextEncoder().encode(value);
const JSONL = 'application/x-ndjson';

describe.each(drivers)('$name object store', (driver) => {
  let store: OpenedObjectStore;
  beforeAll(async () => {
    store = await driver.open();
  });

  it('returns null for a missing key', async () => {
    expect(await store.get(`${WS}/nothing-here.jsonl`)).toBeNull();
    expect(await store.get('orgs')).toBeNull();
  });

  it('round-trips every byte value exactly', async () => {
    const body = new Uint8Array(4096);
    for (let i = 0; i < body.length; i++) body[i] = (i * 7 + (i >> 8)) % 256;
    await store.putImmutable(segment(1), body, JSONL);
    const back = await store.get(segment(1));
    expect(back).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(back!).equals(body)).toBe(true);
  });

  it('round-trips a 1 MiB body byte for byte (no checksum framing stored)', async () => {
    const body = randomBytes(1024 * 1024);
    await store.putImmutable(segment(2), body, JSONL);
    const back = await store.get(segment(2));
    expect(back?.byteLength).toBe(body.byteLength);
    expect(Buffer.from(back!).equals(body)).toBe(true);
  });

  it('round-trips an empty body', async () => {
    await store.putImmutable(`${WS}/empty.jsonl`, new Uint8Array(), JSONL);
    expect((await store.get(`${WS}/empty.jsonl`))?.byteLength).toBe(0);
  });

  it('accepts the same bytes again, rejects different bytes and keeps the original', async () => {
    const key = segment(3);
    await store.putImmutable(key, text('{"a":1}\n'), JSONL);
    await store.putImmutable(key, text('{"a":1}\n'), JSONL);
    for (const other of ['{"a":2}\n', '{"a":1}\n{"b":2}\n']) {
      const error = await store.putImmutable(key, text(other), JSONL).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ObjectConflictError);
      expect((error as ObjectConflictError).key).toBe(key);
    }
    expect(new TextDecoder().decode((await store.get(key))!)).toBe('{"a":1}\n');
  });

  it('lets 10 concurrent writers of the same bytes all succeed, leaving one object', async () => {
    const key = 'orgs/o/workstreams/concurrent/segments/1.jsonl';
    const body = randomBytes(64 * 1024);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => store.putImmutable(key, body, JSONL)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await store.list('orgs/o/workstreams/concurrent/')).toEqual([key]);
    expect(Buffer.from((await store.get(key))!).equals(body)).toBe(true);
  });

  it('lists nested keys under a prefix, sorted, and nothing outside it', async () => {
    const keys = ['orgs/o1/workstreams/ws_1/b.jsonl', 'orgs/o1/workstreams/ws_1/a/z.jsonl', 'orgs/o1/workstreams/ws_1/a/y.jsonl', 'orgs/o1/workstreams/ws_10/c.jsonl', 'orgs/o2/workstreams/ws_1/d.jsonl'];
    for (const key of keys) await store.putImmutable(key, text(key), JSONL);
    expect(await store.list('orgs/o1/workstreams/ws_1/')).toEqual(['orgs/o1/workstreams/ws_1/a/y.jsonl', 'orgs/o1/workstreams/ws_1/a/z.jsonl', 'orgs/o1/workstreams/ws_1/b.jsonl']);
    expect(await store.list('orgs/o1/')).toEqual([...keys.slice(0, 4)].sort());
    expect(await store.list('orgs/o1/workstreams/ws_1')).toEqual([...keys.slice(0, 4)].sort()); // a plain string prefix
    expect(await store.list('orgs/nobody/')).toEqual([]);
    const all = await store.list('');
    expect(all).toEqual([...all].sort());
    expect(all).toEqual(expect.arrayContaining(keys));
  });

  it('lists across many pages', async () => {
    const paged = await driver.open({ pageSize: 7 });
    const keys = Array.from({ length: 25 }, (_, i) => `orgs/p/workstreams/w/segments/${String(i).padStart(4, '0')}.jsonl`);
    await Promise.all(keys.map((key) => paged.putImmutable(key, text(key), JSONL)));
    expect(await paged.list('orgs/p/')).toEqual(keys);
  });

  it('deletes idempotently', async () => {
    const key = `${WS}/to-delete.jsonl`;
    await store.putImmutable(key, text('x'), JSONL);
    await store.delete(key);
    await store.delete(key);
    await store.delete(`${WS}/never-existed.jsonl`);
    expect(await store.get(key)).toBeNull();
    expect(await store.list(WS + '/')).not.toContain(key);
    // A deleted key can be written again (e.g. with a rebuilt segment).
    await store.putImmutable(key, text('y'), JSONL);
    expect(new TextDecoder().decode((await store.get(key))!)).toBe('y');
  });

  it('rejects keys that are not plain relative paths', async () => {
    const bad = ['../x', 'a/../../x', '/etc/passwd', 'a//b', 'a/./b', 'a\\b', 'a/b\0c', '', 'a/', 'a/.tmp-x'];
    for (const key of bad) {
      await expect(store.putImmutable(key, text('x'), JSONL), JSON.stringify(key)).rejects.toThrow(/Invalid object key/);
      await expect(store.get(key)).rejects.toThrow(/Invalid object key/);
      await expect(store.delete(key)).rejects.toThrow(/Invalid object key/);
    }
    await expect(store.list('../')).rejects.toThrow(/Invalid object prefix/);
    await expect(store.list('/')).rejects.toThrow(/Invalid object prefix/);
  });

  it('describes itself without credentials', () => {
    expect(store.description).not.toMatch(/S3RVER/);
    expect(store.description).toMatch(driver.name === 's3' ? /^s3:\/\/memory-bank-test\/contract-\d+\// : /^filesystem \//);
  });
});

describe('filesystem driver', () => {
  const walkAll = async (dir: string): Promise<string[]> => {
    const out: string[] = [];
    for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) out.push(join(entry.parentPath, entry.name).slice(dir.length + 1));
    return out.sort();
  };

  it('leaves no directory behind once everything under a prefix is deleted', async () => {
    const root = await tempDir();
    const store = openObjectStore(fileSettings(root));
    const y = ['orgs/x/workstreams/y/segments/1.jsonl', 'orgs/x/workstreams/y/segments/2.jsonl', 'orgs/x/workstreams/y/index.json'];
    const z = ['orgs/x/workstreams/z/segments/1.jsonl'];
    for (const key of [...y, ...z]) await store.putImmutable(key, text(key), JSONL);
    for (const key of await store.list('orgs/x/workstreams/y/')) await store.delete(key);
    expect(await walkAll(root)).toEqual(['orgs', 'orgs/x', 'orgs/x/workstreams', 'orgs/x/workstreams/z', 'orgs/x/workstreams/z/segments', 'orgs/x/workstreams/z/segments/1.jsonl']);
    await store.delete(z[0]!);
    expect(await walkAll(root)).toEqual([]); // the root itself stays
  });

  it('leaves no temp files behind and ignores stray ones', async () => {
    const root = await tempDir();
    const store = openObjectStore(fileSettings(root));
    await store.putImmutable('a/b.jsonl', text('1'), JSONL);
    await store.putImmutable('a/b.jsonl', text('1'), JSONL);
    await expect(store.putImmutable('a/b.jsonl', text('2'), JSONL)).rejects.toBeInstanceOf(ObjectConflictError);
    expect(await walkAll(root)).toEqual(['a', 'a/b.jsonl']);
    await writeFile(join(root, 'a', '.tmp-crashed-write'), 'partial');
    expect(await store.list('')).toEqual(['a/b.jsonl']);
  });

  it('lets exactly one of several concurrent writers of different bytes win', async () => {
    const store = openObjectStore(fileSettings(await tempDir()));
    const bodies = Array.from({ length: 8 }, (_, i) => text(`writer ${i}\n`));
    const results = await Promise.allSettled(bodies.map((body) => store.putImmutable('race.jsonl', body, JSONL)));
    const winners = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
    expect(winners).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ObjectConflictError);
    expect(await store.get('race.jsonl')).toEqual(bodies[winners[0]!]);
  });

  it('survives writes racing deletes that prune the same directories', async () => {
    const store = openObjectStore(fileSettings(await tempDir()));
    for (let round = 0; round < 20; round++) {
      const key = `orgs/r/workstreams/w/segments/${round}.jsonl`;
      const previous = `orgs/r/workstreams/w/segments/${round - 1}.jsonl`;
      await Promise.all([store.putImmutable(key, text('x'), JSONL), store.delete(previous)]);
      expect(await store.get(key)).toEqual(text('x'));
    }
  });

  it('resolves file:// URLs against the working directory, or takes them as absolute', () => {
    expect(openObjectStore(fileSettings('./data/archive')).description).toBe(`filesystem ${resolve(process.cwd(), 'data/archive')}`);
    expect(openObjectStore({ ...fileSettings(''), ARCHIVE_URL: 'file:///var/lib/archive' }).description).toBe('filesystem /var/lib/archive');
  });
});

describe('openObjectStore', () => {
  it('parses s3:// URLs with and without a prefix', () => {
    expect(track(openObjectStore(s3.settings())).description).toBe(`s3://memory-bank-test/ (${s3.endpoint}, us-east-1)`);
    expect(track(openObjectStore({ ...s3.settings(), ARCHIVE_URL: 's3://bucket/a/b/' })).description).toMatch(/^s3:\/\/bucket\/a\/b\/ /);
  });

  it('rejects half-set credentials, unknown schemes and unsafe prefixes', () => {
    expect(() => openObjectStore({ ...s3.settings(), S3_SECRET_ACCESS_KEY: undefined })).toThrow(/must be set together/);
    expect(() => openObjectStore({ ...s3.settings(), ARCHIVE_URL: 'gs://bucket' })).toThrow(/file:\/\/.*s3:\/\//);
    expect(() => openObjectStore({ ...s3.settings(), ARCHIVE_URL: 's3://bucket/../x' })).toThrow(/Invalid object key/);
  });

  it('never puts credentials in descriptions or errors', async () => {
    const store = track(
      openObjectStore({
        ...s3.settings('creds'),
        S3_ENDPOINT: s3.endpoint.replace('http://', 'http://user:endpoint-password@'),
        S3_ACCESS_KEY_ID: 'AKIAPROBEACCESSKEYID',
        S3_SECRET_ACCESS_KEY: 'probe-secret-access-key',
      }),
    );
    expect(store.description).not.toMatch(/PROBE|probe|endpoint-password/);
    const error = await store.putImmutable('k.jsonl', text('x'), JSONL).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ObjectStoreError);
    const shown = `${String(error)} ${inspect(error, { depth: 10, showHidden: true })} ${JSON.stringify(error)}`;
    expect(shown).not.toMatch(/AKIAPROBEACCESSKEYID|probe-secret-access-key|endpoint-password/);
  });
});

describe('s3 driver', () => {
  it('lists more than 1000 keys with the default page size', async () => {
    const store = track(openObjectStore(s3.settings('many')));
    const keys = Array.from({ length: 1005 }, (_, i) => `orgs/o/workstreams/w/segments/${String(i).padStart(6, '0')}.jsonl`);
    for (let i = 0; i < keys.length; i += 25) await Promise.all(keys.slice(i, i + 25).map((key) => store.putImmutable(key, text('x'), JSONL)));
    expect(await store.list('orgs/')).toEqual(keys);
  });

  it('keeps objects under the configured key prefix', async () => {
    const a = track(openObjectStore(s3.settings('tenant-a/archive')));
    const b = track(openObjectStore(s3.settings('tenant-b')));
    await a.putImmutable('orgs/o/x.jsonl', text('a'), JSONL);
    expect(await s3.listKeys('tenant-a/')).toEqual(['tenant-a/archive/orgs/o/x.jsonl']);
    expect(await a.list('orgs/')).toEqual(['orgs/o/x.jsonl']);
    expect(await b.list('')).toEqual([]);
    expect(await b.get('orgs/o/x.jsonl')).toBeNull();
  });

  describe('on a server that enforces If-None-Match (AWS S3, MinIO, R2)', () => {
    let front: Awaited<ReturnType<typeof startConditionalFront>>;
    beforeAll(async () => {
      front = await startConditionalFront(new URL(s3.directEndpoint).port);
    });
    afterAll(async () => front.close());

    it('sends If-None-Match: * and resolves 412 by comparing bytes, 409 by retrying', async () => {
      const store = track(openObjectStore({ ...s3.settings('conditional'), S3_ENDPOINT: front.endpoint }));
      await store.putImmutable('k.jsonl', text('v1'), JSONL);
      expect(front.conditionalPuts).toBe(1);
      // The front answers every HEAD with 404, as if another writer created the key in between.
      await store.putImmutable('k.jsonl', text('v1'), JSONL);
      await expect(store.putImmutable('k.jsonl', text('v2'), JSONL)).rejects.toBeInstanceOf(ObjectConflictError);
      await expect(store.putImmutable('k.jsonl', text('v3-longer'), JSONL)).rejects.toBeInstanceOf(ObjectConflictError);
      expect(front.preconditionFailures).toBe(3);
      expect(await store.get('k.jsonl')).toEqual(text('v1'));

      front.conflictOnce.add('/memory-bank-test/conditional/busy.jsonl');
      await store.putImmutable('busy.jsonl', text('b'), JSONL);
      expect(await store.get('busy.jsonl')).toEqual(text('b'));
    });
  });

  describe('outage', () => {
    const timed = async (operation: Promise<unknown>) => {
      const started = Date.now();
      const error = await operation.then(
        () => undefined,
        (e: unknown) => e,
      );
      return { error, ms: Date.now() - started };
    };

    it('fails every operation fast while the store refuses connections, and loses nothing', async () => {
      const store = track(openObjectStore(s3.settings('outage-refuse')));
      await store.putImmutable('before.jsonl', text('before'), JSONL);
      s3.setDown(true);
      for (const operation of [
        () => store.putImmutable('during.jsonl', text('during'), JSONL),
        () => store.get('before.jsonl'),
        () => store.list(''),
        () => store.delete('before.jsonl'),
      ]) {
        const { error, ms } = await timed(operation());
        expect(error).toBeInstanceOf(ObjectStoreError);
        expect(ms).toBeLessThan(20_000);
      }
      expect(await s3.listKeys('outage-refuse/')).toEqual(['outage-refuse/before.jsonl']);
      s3.setDown(false);
      await store.putImmutable('during.jsonl', text('during'), JSONL);
      expect(await store.get('before.jsonl')).toEqual(text('before'));
      expect(await store.list('')).toEqual(['before.jsonl', 'during.jsonl']);
    });

    it('times out when the store accepts connections but never answers, and recovers at once', async () => {
      const store = track(openObjectStore(s3.settings('outage-blackhole'), { connectionTimeoutMs: 500, requestTimeoutMs: 700, maxAttempts: 2 }));
      await store.putImmutable('before.jsonl', text('before'), JSONL);
      s3.setDown(true, 'blackhole');
      const { error, ms } = await timed(store.get('before.jsonl'));
      expect(error).toBeInstanceOf(ObjectStoreError);
      expect((error as ObjectStoreError).code).toMatch(/^(TimeoutError|ETIMEDOUT)$/);
      expect(ms).toBeLessThan(5_000);
      s3.setDown(false);
      const started = Date.now();
      expect(await store.get('before.jsonl')).toEqual(text('before'));
      expect(Date.now() - started).toBeLessThan(1_000);
    });

    it('keeps every acknowledged object across a restart of the server process', async () => {
      const store = track(openObjectStore(s3.settings('outage-restart')));
      const body = randomBytes(200_000);
      await store.putImmutable('before.jsonl', body, JSONL);
      await s3.restart();
      expect(Buffer.from((await store.get('before.jsonl'))!).equals(body)).toBe(true);
      await store.putImmutable('after.jsonl', text('after'), JSONL);
      expect(await store.list('')).toEqual(['after.jsonl', 'before.jsonl']);
    });

    it('bounds a whole call, retries included, by the operation deadline', async () => {
      const store = track(openObjectStore(s3.settings('outage-deadline'), { requestTimeoutMs: 60_000, operationTimeoutMs: 1_500 }));
      s3.setDown(true, 'blackhole');
      const { error, ms } = await timed(store.list(''));
      expect(error).toBeInstanceOf(ObjectStoreError);
      expect(ms).toBeGreaterThanOrEqual(1_400);
      expect(ms).toBeLessThan(4_000);
    });
  });
});

/**
 * An HTTP front for s3rver that behaves like AWS on conditional writes: a PUT with
 * `If-None-Match: *` for a key it has stored answers 412. HEAD always answers 404, so the
 * driver's HEAD-first check never fires and the 412 path is what gets exercised.
 */
async function startConditionalFront(s3rverPort: string) {
  const stored = new Set<string>();
  const conflictOnce = new Set<string>();
  const state = { conditionalPuts: 0, preconditionFailures: 0 };
  const xmlError = (res: ServerResponse, status: number, code: string) => {
    res.writeHead(status, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`);
  };
  const forward = (req: IncomingMessage, res: ServerResponse, onStatus?: (status: number) => void) => {
    const upstream = request({ host: '127.0.0.1', port: Number(s3rverPort), method: req.method, path: req.url, headers: req.headers }, (answer) => {
      onStatus?.(answer.statusCode ?? 0);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method === 'HEAD') {
      res.writeHead(404).end();
      return;
    }
    if (req.method === 'PUT' && req.headers['if-none-match'] === '*') {
      state.conditionalPuts++;
      if (conflictOnce.delete(path)) return xmlError(res, 409, 'ConditionalRequestConflict');
      if (stored.has(path)) {
        state.preconditionFailures++;
        req.resume();
        return xmlError(res, 412, 'PreconditionFailed');
      }
      return forward(req, res, (status) => status < 300 && stored.add(path));
    }
    forward(req, res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    conflictOnce,
    get conditionalPuts() {
      return state.conditionalPuts;
    },
    get preconditionFailures() {
      return state.preconditionFailures;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
