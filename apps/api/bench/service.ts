import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const LAUNCHER = fileURLToPath(new URL('../launch.mjs', import.meta.url));
const BARE_SERVER = fileURLToPath(new URL('./bare-server.ts', import.meta.url));

/**
 * The environment (`NAME=value` before `exec`) and node flags `pnpm start` gives the service
 * (the malloc arenas and the heap bound, see docs/operations.md), read from its script so
 * the benchmark runs the service as it is deployed.
 */
function startCommand(): { env: Record<string, string>; flags: string[] } {
  const manifest = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8')) as { scripts: { start: string } };
  const words = manifest.scripts.start.split(/\s+/);
  const exec = words.indexOf('exec');
  const env = Object.fromEntries(words.slice(0, exec).map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]));
  const flags = words.slice(exec + 2, words.findIndex((word) => word.endsWith('launch.mjs'))).filter((word) => word.startsWith('--'));
  return { env, flags };
}

export interface RunningService {
  url: string;
  pid: number;
  /** Process start to the first 200 from /readyz. */
  startupMs: number;
  /** Resident set size now, in bytes. */
  rss(): number;
  stop(): Promise<void>;
}

/** Resident memory of a process, from /proc (Linux). */
export function rssOf(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** A child process that prints `listening on <url>` once it serves: its URL and how to stop it. */
async function spawnListening(args: string[], env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child: ChildProcess = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  // BENCH_SERVICE_LOG=<file> keeps the child's own output (the service's errors behind failed requests).
  if (process.env.BENCH_SERVICE_LOG) {
    const file = createWriteStream(process.env.BENCH_SERVICE_LOG, { flags: 'a' });
    child.stdout!.pipe(file);
    child.stderr!.pipe(file);
  }
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the process did not start:\n${output.slice(-2000)}`)), 60_000);
    const read = (chunk: Buffer) => {
      if (output.length < 100_000) output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        // Later lines (the access log) are read and dropped, not searched.
        child.stdout!.off('data', read);
        child.stderr!.off('data', read);
        child.stdout!.resume();
        child.stderr!.resume();
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`the process exited (${code}):\n${output.slice(-2000)}`)));
  });
  return { url, child };
}

const stopped = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/** The real server (the bundle `pnpm start` runs) as a child process, on a free port. */
export async function startService(env: Record<string, string>): Promise<RunningService> {
  const started = performance.now();
  // BENCH_NODE_ARGS adds node flags to the service only, e.g. "--cpu-prof --cpu-prof-dir=prof".
  const start = startCommand();
  const nodeArgs = [...start.flags, ...(process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean)];
  const { url, child } = await spawnListening([...nodeArgs, LAUNCHER, 'main'], { ...start.env, PORT: '0', LOG_LEVEL: 'info', ...env });
  for (;;) {
    const ready = await fetch(`${url}/readyz`).then((res) => res.ok, () => false);
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const startupMs = performance.now() - started;
  return { url, pid: child.pid!, startupMs, rss: () => rssOf(child.pid!), stop: () => stopped(child) };
}

/** bare-server.ts as a child process (TypeScript through tsx, as the benchmark itself runs). */
export async function startBareServer(env: Record<string, string>): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const { url, child } = await spawnListening(['--import', 'tsx', BARE_SERVER], env);
  return { url, pid: child.pid!, stop: () => stopped(child) };
}

/** Samples a process's RSS every `everyMs` while `work` runs; returns the work's result and the peak. */
export async function withPeakRss<T>(pid: number, work: () => Promise<T>, everyMs = 200): Promise<{ result: T; peak: number }> {
  let peak = rssOf(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), everyMs);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, rssOf(pid)) };
  } finally {
    clearInterval(timer);
  }
}
