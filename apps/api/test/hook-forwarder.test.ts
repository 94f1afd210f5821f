/**
 * integrations/forward.sh, run for real under dash against a recording HTTP server.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { opencodeAdapter } from '../src/hooks/adapters';
import type { HookPayload } from '../src/hooks/types';

const SCRIPT = fileURLToPath(new URL('../../../integrations/forward.sh', import.meta.url));
const OPENCODE_PLUGIN = fileURLToPath(new URL('../../../integrations/opencode/memory-bank.js', import.meta.url));
const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const canRun = has('dash') && has('curl') && existsSync('/proc/self/environ');
const hasFlock = has('flock');

interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What the test server answers: a status, or 'hang' (never answers). */
type Behaviour = number | 'hang' | ((request: Recorded) => { status: number; body?: unknown });

class RecordingServer {
  readonly requests: Recorded[] = [];
  behaviour: Behaviour = 202;
  private server: Server | undefined;
  private port = 0;

  async start(port = 0): Promise<number> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
        this.requests.push(recorded);
        const behaviour = this.behaviour;
        if (behaviour === 'hang') return;
        const { status, body } = typeof behaviour === 'function' ? behaviour(recorded) : { status: behaviour, body: undefined };
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body ?? { ok: status < 300 }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop() {
    if (this.server === undefined) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Every forward.sh this file starts carries this tag in its environment, and so do the
 * background drainers it leaves behind: a test waits for them to be gone (a condition,
 * not a delay) before it judges what they did.
 */
const RUN_TAG = `MB_TEST_FORWARDER=${process.pid}-${Math.random().toString(36).slice(2)}`;

/** Whether a process started by this file (a forwarder or its drainer) is still running (Linux /proc). */
function forwardersRunning(): boolean {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`).toString().split('\0').includes(RUN_TAG)) return true;
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return false;
}

const forwardersDone = () => waitFor(() => !forwardersRunning(), 60_000);

function runForwarder(args: string[], options: { stdin?: string | Buffer; env: Record<string, string | undefined>; path?: string }): Promise<Run> {
  const started = Date.now();
  const [tagName, tagValue] = RUN_TAG.split('=') as [string, string];
  const env: Record<string, string> = { PATH: options.path ?? process.env.PATH ?? '/usr/bin:/bin', [tagName]: tagValue };
  for (const [name, value] of Object.entries(options.env)) if (value !== undefined) env[name] = value;
  const child = spawn('dash', [SCRIPT, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.on('error', () => {}); // the script may exit without reading stdin
  child.stdin.end(options.stdin ?? '');
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started })));
}

async function waitFor(condition: () => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A PATH dir with every tool of /usr/bin and /bin except `missing`. */
function pathWithout(work: string, missing: string[]): string {
  const bin = join(work, `bin-without-${missing.join('-')}`);
  mkdirSync(bin);
  for (const dir of ['/usr/bin', '/bin']) {
    if (!existsSync(dir)) continue;
    for (const tool of readdirSync(dir)) {
      if (missing.includes(tool) || existsSync(join(bin, tool))) continue;
      symlinkSync(join(dir, tool), join(bin, tool));
    }
  }
  return bin;
}

const spooled = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')).sort() : []);

// A payload with the bytes a naive forwarder would mangle: unicode, backslashes, `%`, a trailing newline.
const PAYLOAD = Buffer.from(
  `${JSON.stringify({
    session_id: 'abc123',
    transcript_path: '/home/ana/.claude/projects/x/abc123.jsonl',
    cwd: '/home/ana/shop',
    hook_event_name: 'UserPromptSubmit',
    prompt: 'Fix the “checkout” bug — 100% of C:\\temp\\* and $HOME `ls` \u{1F600}',
  })}\n`,
);
const API_KEY = 'mbk_test_0123456789abcdef';

describe.skipIf(!canRun)('forward.sh', () => {
  const server = new RecordingServer();
  let work: string | undefined;
  let spool: string;
  let env: Record<string, string | undefined>;

  beforeAll(async () => {
    await server.start();
  });
  afterAll(async () => {
    await server.stop();
  });
  const setup = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mb-forward-'));
    work = dir;
    spool = join(dir, 'spool');
    env = { HOME: dir, MEMORY_BANK_URL: server.url, MEMORY_BANK_API_KEY: API_KEY, MEMORY_BANK_SPOOL: spool };
    server.requests.length = 0;
    server.behaviour = 202;
  };
  afterEach(async () => {
    // A drainer the test set off in the background finishes before the next test starts.
    await forwardersDone();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
    work = undefined;
  });

  it('is valid POSIX sh', () => {
    expect(spawnSync('dash', ['-n', SCRIPT]).status).toBe(0);
    expect(spawnSync('sh', ['-n', SCRIPT]).status).toBe(0);
  });

  it('posts the payload byte for byte, with the API key and an idempotency key, silently', async () => {
    setup();
    const run = await runForwarder(['claude-code'], { stdin: PAYLOAD, env });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/v1/hooks/claude-code');
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    expect(request!.body.equals(PAYLOAD)).toBe(true);
    expect(spooled(spool)).toEqual([]);

    await runForwarder(['claude-code'], { stdin: PAYLOAD, env });
    expect(server.requests[1]!.headers['idempotency-key']).not.toBe(request!.headers['idempotency-key']);
  });

  it('takes a Codex notify payload from its last argument', async () => {
    setup();
    const notify = JSON.stringify({
      type: 'agent-turn-complete',
      'thread-id': 't-1',
      'turn-id': '3',
      cwd: '/w',
      'input-messages': ['rename `foo`'],
      'last-assistant-message': 'Done: 100% "renamed" \\o/',
    });
    const run = await runForwarder(['codex', notify], { env });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.url).toBe('/v1/hooks/codex');
    expect(server.requests[0]!.body.toString()).toBe(notify);
  });

  it('does nothing without an API key, or for an unknown harness, or an empty payload', async () => {
    setup();
    for (const [args, extra, stdin] of [
      [['claude-code'], { MEMORY_BANK_API_KEY: undefined }, PAYLOAD],
      [['claude-code'], { MEMORY_BANK_API_KEY: '' }, PAYLOAD],
      [['emacs'], {}, PAYLOAD],
      [[], {}, PAYLOAD],
      [['claude-code'], {}, ''],
    ] as const) {
      const run = await runForwarder([...args], { stdin, env: { ...env, ...extra } });
      expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
    expect(server.requests).toHaveLength(0);
    expect(spooled(spool)).toEqual([]);
  });

  it('spools the payload when the service fails (503), quickly and silently', async () => {
    setup();
    server.behaviour = 503;
    const run = await runForwarder(['claude-code'], { stdin: PAYLOAD, env });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(run.ms).toBeLessThan(5000);
    const files = spooled(spool);
    expect(files).toHaveLength(1);
    const key = server.requests[0]!.headers['idempotency-key'];
    expect(files[0]).toMatch(new RegExp(`^\\d{19}\\.${key}\\.claude-code\\.json$`));
    expect(readFileSync(join(spool, files[0]!)).equals(PAYLOAD)).toBe(true);
    expect(readdirSync(spool).filter((name) => !name.endsWith('.json'))).toEqual([]); // no temp files left
  });

  it('does not spool a payload the service refuses for good (400), or one over 1 MiB', async () => {
    setup();
    server.behaviour = 400;
    const run = await runForwarder(['claude-code'], { stdin: PAYLOAD, env });
    expect(run.code).toBe(0);
    expect(spooled(spool)).toEqual([]);

    // Nor one over 1 MiB, which the service refuses anyway.
    server.behaviour = 503;
    const huge = await runForwarder(['claude-code'], { stdin: JSON.stringify({ session_id: 's', hook_event_name: 'X', blob: 'x'.repeat(1_100_000) }), env });
    expect(huge).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readdirSync(spool)).toEqual([]);
  });

  it('spools when nothing listens, and when the service hangs gives up within 5 s', async () => {
    setup();
    const closed = new RecordingServer();
    await closed.start();
    const deadUrl = closed.url;
    await closed.stop();
    const refused = await runForwarder(['claude-code'], { stdin: PAYLOAD, env: { ...env, MEMORY_BANK_URL: deadUrl } });
    expect(refused).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(refused.ms).toBeLessThan(5000);
    expect(spooled(spool)).toHaveLength(1);

    // With an empty spool the payload is posted live; a service that never answers is given 3 s.
    for (const name of spooled(spool)) rmSync(join(spool, name));
    server.behaviour = 'hang';
    const hung = await runForwarder(['claude-code'], { stdin: PAYLOAD, env });
    expect(hung).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(hung.ms).toBeLessThan(5000);
    expect(spooled(spool)).toHaveLength(1);
  });

  it('drains the spool to /v1/hooks/batch once the service is back, in order, then leaves it empty', async () => {
    setup();
    server.behaviour = 503;
    const payloads = ['one', 'two', 'three'].map((prompt) => Buffer.from(JSON.stringify({ session_id: 's', hook_event_name: 'UserPromptSubmit', prompt })));
    for (const payload of payloads) await runForwarder(['claude-code'], { stdin: payload, env });
    await runForwarder(['codex', '{"type":"agent-turn-complete","thread-id":"t"}'], { env });
    // Only the first was tried live; the rest queued behind it (their drainers failed too).
    await forwardersDone();
    expect(spooled(spool)).toHaveLength(4);
    const firstKey = server.requests.find((request) => request.url === '/v1/hooks/claude-code')!.headers['idempotency-key'];
    expect(server.requests.filter((request) => request.url === '/v1/hooks/claude-code')).toHaveLength(1);

    server.requests.length = 0;
    server.behaviour = (request) =>
      request.url === '/v1/hooks/batch'
        ? { status: 200, body: { results: (JSON.parse(request.body.toString()) as { events: unknown[] }).events.map((_, index) => ({ index, status: 202 })) } }
        : { status: 202 };
    // The next event queues behind the spooled ones, so the ledger gets them in order.
    const run = await runForwarder(['claude-code'], { stdin: PAYLOAD, env });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(run.ms).toBeLessThan(5000);

    await forwardersDone();
    expect(spooled(spool)).toEqual([]);
    expect(server.requests.filter((request) => request.url !== '/v1/hooks/batch')).toEqual([]);
    // One batch: every drainer of the failing runs was gone before the service came back.
    const batches = server.requests.filter((request) => request.url === '/v1/hooks/batch');
    expect(batches).toHaveLength(1);
    expect(batches[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(batches[0]!.headers['content-type']).toBe('application/json');
    const events = batches.flatMap(
      (batch) => (JSON.parse(batch.body.toString()) as { events: Array<{ harness: string; idempotency_key: string; payload: unknown }> }).events,
    );
    expect(events.map((event) => (event.payload as { prompt?: string }).prompt?.slice(0, 9) ?? event.harness)).toEqual(['one', 'two', 'three', 'codex', 'Fix the “']);
    expect(events[0]).toMatchObject({ harness: 'claude-code', idempotency_key: firstKey, payload: JSON.parse(payloads[0]!.toString()) });
    expect(new Set(events.map((event) => event.idempotency_key)).size).toBe(5);
    expect(readdirSync(spool).filter((name) => name !== '.drain.flock')).toEqual([]);
  });

  it('drains in chunks of at most 256 events, keeping the files until a 2xx', async () => {
    setup();
    mkdirSync(spool, { recursive: true });
    for (let i = 0; i < 300; i++) {
      const name = `${1_700_000_000 + i}.${i.toString(16).padStart(32, '0')}.generic.json`;
      writeFileSync(join(spool, name), JSON.stringify({ session_id: 's', event: 'note', text: `note ${i}` }));
    }
    // First the batch endpoint fails: nothing may be deleted.
    server.behaviour = (request) => (request.url === '/v1/hooks/batch' ? { status: 503 } : { status: 202 });
    await runForwarder(['generic'], { stdin: '{"session_id":"s","event":"x"}', env });
    await forwardersDone();
    expect(server.requests.some((request) => request.url === '/v1/hooks/batch')).toBe(true);
    expect(spooled(spool)).toHaveLength(301); // the new event queued behind them

    server.requests.length = 0;
    server.behaviour = (request) => (request.url === '/v1/hooks/batch' ? { status: 200, body: { results: [] } } : { status: 202 });
    await runForwarder(['generic'], { stdin: '{"session_id":"s","event":"x"}', env });
    await forwardersDone();
    expect(spooled(spool)).toEqual([]);
    const sizes = server.requests
      .filter((request) => request.url === '/v1/hooks/batch')
      .map((request) => (JSON.parse(request.body.toString()) as { events: Array<{ payload: { text: string } }> }).events);
    expect(sizes.map((events) => events.length)).toEqual([256, 46]);
    expect(sizes[0]![0]!.payload.text).toBe('note 0'); // oldest first
  });

  it('falls back to one-event batches when a malformed spooled file spoils the batch', async () => {
    setup();
    mkdirSync(spool, { recursive: true });
    writeFileSync(join(spool, `1700000000.${'a'.repeat(32)}.generic.json`), '{"session_id":"s","event":"ok-1"}');
    writeFileSync(join(spool, `1700000001.${'b'.repeat(32)}.generic.json`), '{"session_id":"s","event": truncated');
    writeFileSync(join(spool, `1700000002.${'c'.repeat(32)}.claude-code.json`), '{"session_id":"s","hook_event_name":"Stop"}');
    const parses = (body: Buffer) => {
      try {
        JSON.parse(body.toString());
        return true;
      } catch {
        return false;
      }
    };
    server.behaviour = (request) => ({ status: parses(request.body) ? (request.url === '/v1/hooks/batch' ? 200 : 202) : 400, body: { results: [] } });
    await runForwarder(['generic'], { stdin: '{"session_id":"s","event":"x"}', env });
    await forwardersDone();
    expect(spooled(spool)).toEqual([]);
    expect(server.requests.every((request) => request.url === '/v1/hooks/batch')).toBe(true);
    // The spoiled batch of four, then each event alone, keeping its key and occurred_at.
    const [spoiled, ...singles] = server.requests.map((request) => request.body.toString());
    expect(parses(Buffer.from(spoiled!))).toBe(false);
    expect(singles.map((body) => /"idempotency_key":"([0-9a-f]{32})","occurred_at":(\d+)/.exec(body)?.slice(1))).toEqual([
      ['a'.repeat(32), '1700000000'],
      ['b'.repeat(32), '1700000001'],
      ['c'.repeat(32), '1700000002'],
      [expect.stringMatching(/^[0-9a-f]{32}$/), expect.stringMatching(/^\d{13}$/)], // the new event, queued behind them
    ]);
  });

  it.skipIf(!hasFlock)('leaves the spool to a live drainer holding the flock, and drains once it is gone', async () => {
    setup();
    mkdirSync(spool, { recursive: true });
    writeFileSync(join(spool, `1700000000.${'a'.repeat(32)}.generic.json`), '{"session_id":"s","event":"x"}');
    const lockFile = join(spool, '.drain.flock');
    const holder = spawn('flock', [lockFile, 'cat'], { stdio: ['pipe', 'ignore', 'ignore'] });
    await waitFor(() => spawnSync('flock', ['-n', lockFile, 'true']).status === 1);
    server.behaviour = (request) => (request.url === '/v1/hooks/batch' ? { status: 200, body: { results: [] } } : { status: 202 });
    await runForwarder(['generic'], { stdin: '{"session_id":"s","event":"y"}', env });
    await forwardersDone();
    expect(server.requests).toHaveLength(0);
    expect(spooled(spool)).toHaveLength(2); // queued behind the spooled one, for that drainer

    // The holder dies (the kernel drops its lock): the next event's drainer sends everything.
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    await runForwarder(['generic'], { stdin: '{"session_id":"s","event":"z"}', env });
    await forwardersDone();
    expect(spooled(spool)).toEqual([]);
    expect(server.requests.filter((request) => request.url === '/v1/hooks/batch')).toHaveLength(1);
  });

  it('without flock(1): leaves the spool to a live drainer, and takes over from a dead, foreign or silent one', async () => {
    setup();
    const path = pathWithout(work!, ['flock']);
    mkdirSync(spool, { recursive: true });
    writeFileSync(join(spool, `1700000000.${'a'.repeat(32)}.generic.json`), '{"session_id":"s","event":"x"}');
    const owner = join(spool, '.drain.pid');
    // A live drainer: a process of forward.sh (its name in the arguments, as ps shows them).
    const drainer = spawn('dash', ['-c', 'sleep 60; :', 'forward.sh'], { stdio: 'ignore' });
    writeFileSync(owner, `${drainer.pid}\n`); // alive, and touched just now
    server.behaviour = (request) => (request.url === '/v1/hooks/batch' ? { status: 200, body: { results: [] } } : { status: 202 });
    await runForwarder(['generic'], { stdin: '{"session_id":"s","event":"y"}', env, path });
    await forwardersDone();
    expect(server.requests).toHaveLength(0);
    expect(spooled(spool)).toHaveLength(2);
    drainer.kill('SIGKILL');
    await new Promise((resolve) => drainer.once('exit', resolve));

    // A live pid that is no forward.sh (a busy machine gave the dead drainer's pid to another
    // process): taken over at once.
    writeFileSync(owner, `${process.pid}\n`);
    await runForwarder(['generic'], { stdin: '{"session_id":"s","event":"v"}', env, path });
    await forwardersDone();
    expect(spooled(spool)).toEqual([]);
    expect(server.requests.filter((request) => request.url === '/v1/hooks/batch')).toHaveLength(1);
    server.requests.length = 0;
    writeFileSync(join(spool, `1700000000.${'c'.repeat(32)}.generic.json`), '{"session_id":"s","event":"x"}');

    // A pid that is gone: taken over at once.
    const dead = spawnSync('true').pid;
    writeFileSync(owner, `${dead}\n`);
    await runForwarder(['generic'], { stdin: '{"session_id":"s","event":"z"}', env, path });
    await forwardersDone();
    expect(spooled(spool)).toEqual([]);
    expect(existsSync(owner)).toBe(false);
    expect(server.requests.filter((request) => request.url === '/v1/hooks/batch')).toHaveLength(1);

    // A live drainer whose file nobody touched for minutes (stuck): taken over too.
    writeFileSync(join(spool, `1700000001.${'b'.repeat(32)}.generic.json`), '{"session_id":"s","event":"x"}');
    const stuck = spawn('dash', ['-c', 'sleep 60; :', 'forward.sh'], { stdio: 'ignore' });
    writeFileSync(owner, `${stuck.pid}\n`);
    const minutesAgo = new Date(Date.now() - 5 * 60_000);
    utimesSync(owner, minutesAgo, minutesAgo);
    await runForwarder(['generic'], { stdin: '{"session_id":"s","event":"w"}', env, path });
    await forwardersDone();
    stuck.kill('SIGKILL');
    expect(spooled(spool)).toEqual([]);
    expect(server.requests.filter((request) => request.url === '/v1/hooks/batch')).toHaveLength(2);
  });

  // Issue 10: a drainer that lost the lock could leave a fresh lock with no drainer behind,
  // and spooled events then waited ~5 minutes; drained events were dated when they drained.
  it.each(hasFlock ? (['flock', 'pid lock'] as const) : (['pid lock'] as const))(
    'through outages, many concurrent forwarders (%s) deliver every spooled event promptly, in order, with its time',
    async (mode) => {
      setup();
      const path = mode === 'flock' ? undefined : pathWithout(work!, ['flock']);
      const up = (request: Recorded) =>
        request.url === '/v1/hooks/batch'
          ? { status: 200, body: { results: (JSON.parse(request.body.toString()) as { events: unknown[] }).events.map((_, index) => ({ index, status: 202 })) } }
          : { status: 202 };
      const fire = (round: number, from: number, count: number) =>
        Promise.all(
          Array.from({ length: count }, (_, i) =>
            runForwarder(['claude-code'], { stdin: JSON.stringify({ session_id: 's', hook_event_name: 'UserPromptSubmit', prompt: `round ${round} event ${from + i}` }), env, path }),
          ),
        );
      for (let round = 0; round < 3; round++) {
        server.requests.length = 0;
        server.behaviour = 503;
        // One event spooled first, so that the next ones all queue behind it and their
        // drainers (failing: the service is down) contend for the lock.
        await fire(round, 0, 1);
        await fire(round, 1, 23);
        await forwardersDone();
        const waiting = spooled(spool);
        expect(waiting).toHaveLength(24);

        server.requests.length = 0;
        server.behaviour = up;
        const back = Date.now();
        await fire(round, 24, 6);
        await forwardersDone();
        expect(spooled(spool)).toEqual([]);
        expect(Date.now() - back).toBeLessThan(15_000);
        expect(readdirSync(spool).filter((name) => name !== '.drain.flock')).toEqual([]); // nothing left behind

        // Each spooled event went out once the service was back, oldest first, dated by its stamp.
        const sent = server.requests
          .filter((request) => request.url === '/v1/hooks/batch')
          .flatMap((request) => (JSON.parse(request.body.toString()) as { events: Array<{ idempotency_key: string; occurred_at: number }> }).events);
        const firstSent = new Map<string, number>();
        for (const event of sent) if (!firstSent.has(event.idempotency_key)) firstSent.set(event.idempotency_key, event.occurred_at);
        const expected = waiting.map((name) => {
          const [stamp, key] = name.split('.') as [string, string];
          return [key, Number(stamp.slice(0, -6))] as const;
        });
        expect([...firstSent].filter(([key]) => expected.some(([waitingKey]) => waitingKey === key))).toEqual(expected);
      }
    },
    120_000,
  );

  it('MEMORY_BANK_DEBUG=1 reports on stderr, also while the spool holds events', async () => {
    setup();
    server.behaviour = 503;
    const failed = await runForwarder(['claude-code'], { stdin: PAYLOAD, env: { ...env, MEMORY_BANK_DEBUG: '1' } });
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toContain('→ HTTP 503');
    expect(failed.stderr).toContain(`spooled in ${spool}`);
    const queued = await runForwarder(['claude-code'], { stdin: PAYLOAD, env: { ...env, MEMORY_BANK_DEBUG: '1' } });
    expect(queued).toMatchObject({ code: 0, stdout: '' });
    expect(queued.stderr).toContain('queued behind 1 spooled event(s)');
    expect(API_KEY.length > 0 && (failed.stderr + queued.stderr).includes(API_KEY)).toBe(false);
  });

  it('keeps at most MEMORY_BANK_SPOOL_MAX files, dropping the oldest', async () => {
    setup();
    mkdirSync(spool, { recursive: true });
    for (let i = 0; i < 3; i++) writeFileSync(join(spool, `${1_600_000_000 + i}.${'0'.repeat(31)}${i}.generic.json`), '{}');
    server.behaviour = 503;
    await runForwarder(['claude-code'], { stdin: PAYLOAD, env: { ...env, MEMORY_BANK_SPOOL_MAX: '2' } });
    const files = spooled(spool);
    expect(files).toHaveLength(2);
    expect(files[0]).toBe(`1600000002.${'0'.repeat(31)}2.generic.json`);
    expect(files[1]).toMatch(/\.claude-code\.json$/);
  });

  it.skipIf(!has('wget'))('uses wget when curl is missing', async () => {
    setup();
    const bin = pathWithout(work!, ['curl']);
    const run = await runForwarder(['claude-code'], { stdin: PAYLOAD, env, path: bin });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(server.requests[0]!.headers['content-type']).toBe('application/json');
    expect(server.requests[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    expect(server.requests[0]!.body.equals(PAYLOAD)).toBe(true);
    expect(spooled(spool)).toEqual([]);

    server.behaviour = 503;
    await runForwarder(['claude-code'], { stdin: PAYLOAD, env, path: bin });
    expect(spooled(spool)).toHaveLength(1);
  });
});

type Hook = (...args: unknown[]) => Promise<void>;

describe('OpenCode plugin', () => {
  const server = new RecordingServer();
  let work: string;
  let imports = 0;
  const saved = { ...process.env };

  /** A fresh instance of the plugin module (it reads its environment when loaded). */
  async function loadPlugin(env: Record<string, string>): Promise<Record<string, Hook>> {
    Object.assign(process.env, env);
    const module = (await import(`${pathToFileURL(OPENCODE_PLUGIN).href}?instance=${++imports}`)) as {
      MemoryBank: (input: { directory: string }) => Promise<Record<string, Hook>>;
    };
    return module.MemoryBank({ directory: '/home/ana/shop' });
  }

  const bodies = (path: string) => server.requests.filter((request) => request.url === path).map((request) => JSON.parse(request.body.toString()) as HookPayload);

  beforeAll(async () => {
    await server.start();
    work = mkdtempSync(join(tmpdir(), 'mb-opencode-'));
  });
  afterAll(async () => {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
    for (const name of ['MEMORY_BANK_URL', 'MEMORY_BANK_API_KEY', 'MEMORY_BANK_SPOOL']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('does nothing without an API key', async () => {
    const hooks = await loadPlugin({ MEMORY_BANK_URL: server.url, MEMORY_BANK_API_KEY: '', MEMORY_BANK_SPOOL: join(work, 'spool') });
    expect(hooks).toEqual({});
  });

  it('posts payloads the opencode adapter reads, with an idempotency key, and never throws', async () => {
    server.requests.length = 0;
    server.behaviour = 202;
    const hooks = await loadPlugin({ MEMORY_BANK_URL: server.url, MEMORY_BANK_API_KEY: API_KEY, MEMORY_BANK_SPOOL: join(work, 'spool') });
    const session = 'ses_6b1f0c2a9ffeQk3LmN8pR2sT4v';

    await hooks['event']!({ event: { type: 'session.created', properties: { info: { id: session, directory: '/home/ana/shop', title: 'New session', projectID: 'p', version: '1', time: { created: 1, updated: 1 } } } } });
    await hooks['chat.message']!({ sessionID: session, agent: 'build', model: { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' }, messageID: 'msg_1' }, { message: { id: 'msg_1' }, parts: [{ type: 'text', text: 'Why does checkout render twice?' }, { type: 'file', url: 'file:///x' }] });
    await hooks['tool.execute.before']!({ tool: 'bash', sessionID: session, callID: 'call_1' }, { args: { command: 'npm test', description: 'Run tests' } });
    await hooks['tool.execute.after']!({ tool: 'bash', sessionID: session, callID: 'call_1' }, { title: 'Run tests', output: 'ok 3 tests', metadata: { exit: 0, description: 'Run tests', diff: { huge: true } } });
    for (const text of ['The page', 'The page renders twice: the effect has no dependency array.']) {
      await hooks['event']!({ event: { type: 'message.part.updated', properties: { part: { id: 'prt_1', sessionID: session, messageID: 'msg_2', type: 'text', text } } } });
    }
    await hooks['event']!({ event: { type: 'message.part.updated', properties: { part: { id: 'prt_2', sessionID: session, messageID: 'msg_2', type: 'tool', callID: 'call_2', tool: 'read', state: { status: 'error', input: { filePath: '/nope' }, error: 'File not found: /nope' } } } } });
    const assistant = { id: 'msg_2', sessionID: session, role: 'assistant', providerID: 'anthropic', modelID: 'claude-sonnet-4-5' };
    await hooks['event']!({ event: { type: 'message.updated', properties: { info: { ...assistant, time: { created: 1 } } } } });
    await hooks['event']!({ event: { type: 'message.updated', properties: { info: { ...assistant, time: { created: 1, completed: 2 } } } } });
    await hooks['event']!({ event: { type: 'message.updated', properties: { info: { ...assistant, time: { created: 1, completed: 2 } } } } }); // sent once
    await hooks['event']!({ event: { type: 'session.idle', properties: { sessionID: session } } });
    await hooks['event']!({ event: { type: 'lsp.updated', properties: {} } }); // not forwarded

    // Odd calls must not throw into OpenCode.
    await expect(hooks['tool.execute.before']!(undefined, undefined)).resolves.toBeUndefined();
    await expect(hooks['event']!(undefined)).resolves.toBeUndefined();
    await expect(hooks['chat.message']!(null, null)).resolves.toBeUndefined();

    // The plugin's recall (POST /v1/recall) is not a hook delivery: it carries no idempotency key.
    const deliveries = () => server.requests.filter((request) => request.url.startsWith('/v1/hooks/'));
    await waitFor(() => deliveries().length >= 7);
    for (const request of deliveries()) {
      expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    }
    const events = bodies('/v1/hooks/opencode')
      .filter((payload) => payload.sessionID === session)
      .map((payload) => opencodeAdapter(payload))
      .sort((a, b) => a.occurredAt!.getTime() - b.occurredAt!.getTime() || a.eventName.localeCompare(b.eventName));
    const byName = Object.fromEntries(events.map((event) => [event.eventName, event]));
    expect(Object.keys(byName).sort()).toEqual(['chat.message', 'message.part.updated', 'message.updated', 'session.created', 'session.idle', 'tool.execute.after', 'tool.execute.before']);
    expect(events.filter((event) => event.eventName === 'message.updated')).toHaveLength(1);
    expect(byName['session.created']).toMatchObject({ kind: 'lifecycle', session: { cwd: '/home/ana/shop' } });
    expect(byName['chat.message']).toMatchObject({ kind: 'message', role: 'user', content: 'Why does checkout render twice?', session: { model: 'anthropic/claude-sonnet-4-5' } });
    expect(byName['tool.execute.before']).toMatchObject({ kind: 'tool_call', toolUseId: 'call_1', content: 'bash: npm test\ndescription: Run tests' });
    expect(byName['tool.execute.after']).toMatchObject({ kind: 'tool_result', outcome: 'success', toolUseId: 'call_1', content: 'bash: npm test\ndescription: Run tests\n→ ok 3 tests' });
    expect(byName['message.part.updated']).toMatchObject({ kind: 'tool_result', outcome: 'error', toolUseId: 'call_2', content: 'read: /nope\n✗ File not found: /nope' });
    expect(byName['message.updated']).toMatchObject({ kind: 'message', role: 'assistant', content: 'The page renders twice: the effect has no dependency array.' });
    expect(byName['session.idle']).toMatchObject({ kind: 'checkpoint' });
    const after = bodies('/v1/hooks/opencode').find((payload) => payload.event === 'tool.execute.after')!;
    expect(after.metadata).toEqual({ exit: 0, description: 'Run tests' }); // large metadata left out
  });

  it('spools what it cannot deliver; later events queue behind it and drain in order, keeping their time', async () => {
    const spoolDir = join(work, 'spool2');
    server.requests.length = 0;
    server.behaviour = 503;
    const hooks = await loadPlugin({ MEMORY_BANK_URL: server.url, MEMORY_BANK_API_KEY: API_KEY, MEMORY_BANK_SPOOL: spoolDir });
    await hooks['event']!({ event: { type: 'session.idle', properties: { sessionID: 'ses_a' } } });
    await waitFor(() => spooled(spoolDir).length === 1);
    await hooks['event']!({ event: { type: 'session.compacted', properties: { sessionID: 'ses_a' } } });
    await waitFor(() => spooled(spoolDir).length === 2 && !existsSync(join(spoolDir, '.drain.pid')));
    expect(spooled(spoolDir)[0]).toMatch(/^\d{19}\.[0-9a-f]{32}\.opencode\.json$/);
    const stamps = spooled(spoolDir).map((name) => Number(name.slice(0, 13)));

    server.requests.length = 0;
    server.behaviour = (request) => (request.url === '/v1/hooks/batch' ? { status: 200, body: { results: [] } } : { status: 202 });
    await hooks['event']!({ event: { type: 'session.idle', properties: { sessionID: 'ses_b' } } });
    await waitFor(() => spooled(spoolDir).length === 0 && !existsSync(join(spoolDir, '.drain.pid')));
    expect(bodies('/v1/hooks/opencode')).toEqual([]); // queued behind the spooled ones, not sent ahead of them
    const batches = bodies('/v1/hooks/batch') as unknown as Array<{ events: Array<{ harness: string; idempotency_key: string; occurred_at: number; payload: HookPayload }> }>;
    const events = batches.flatMap((batch) => batch.events);
    expect(events.map((event) => [event.harness, event.payload.event, event.payload.sessionID])).toEqual([
      ['opencode', 'session.idle', 'ses_a'],
      ['opencode', 'session.compacted', 'ses_a'],
      ['opencode', 'session.idle', 'ses_b'],
    ]);
    expect(events.slice(0, 2).map((event) => event.occurred_at)).toEqual(stamps);
    for (const event of events) expect(event.idempotency_key).toMatch(/^[0-9a-f]{32}$/);
  });

  it("takes over forward.sh's pid lock from a drainer that is gone", async () => {
    const spoolDir = join(work, 'spool3');
    mkdirSync(spoolDir, { recursive: true });
    writeFileSync(join(spoolDir, `1700000000000000000.${'a'.repeat(32)}.generic.json`), '{"session_id":"s","event":"x"}');
    writeFileSync(join(spoolDir, '.drain.pid'), `${spawnSync('true').pid}\n`); // a dead drainer's, touched just now
    server.requests.length = 0;
    server.behaviour = (request) => (request.url === '/v1/hooks/batch' ? { status: 200, body: { results: [] } } : { status: 202 });
    const hooks = await loadPlugin({ MEMORY_BANK_URL: server.url, MEMORY_BANK_API_KEY: API_KEY, MEMORY_BANK_SPOOL: spoolDir });
    await hooks['event']!({ event: { type: 'session.idle', properties: { sessionID: 'ses_c' } } });
    await waitFor(() => spooled(spoolDir).length === 0 && !existsSync(join(spoolDir, '.drain.pid')));
    expect(bodies('/v1/hooks/batch')).toHaveLength(1);
  });
});
