import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `pnpm <args>` from the repository root, as a newcomer would. */
export function runPnpm(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn('pnpm', args, { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Starts `pnpm start` and resolves once it has printed its URL and where the API reference is.
 * EMBEDDINGS_PROVIDER is `none` unless `env` sets it (as the test server's): a service with the
 * local model loads it and embeds every memory of the run's database in the background.
 */
export function startService(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; output: () => string; stdout: () => string; stderr: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('pnpm', ['start'], { cwd: REPO_ROOT, env: { ...process.env, EMBEDDINGS_PROVIDER: 'none', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => reject(new Error(`no URL printed:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = output.match(/listening on (http:\/\/\S+)/);
      if (match && /API reference: .*\n/.test(output)) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, output: () => output, stdout: () => stdout, stderr: () => stderr });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${output}`));
    });
  });
}

/** Whether any process of the group led by `pid` (pnpm and what it started) is alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Sends SIGTERM to the process group started by startService (pnpm, tsx and node) and
 * resolves once every process of it has exited — the service's own shutdown included.
 */
export async function stopService(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null) resolve({ code: child.exitCode, signal: null });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  if (groupAlive(child.pid!)) process.kill(-child.pid!, 'SIGTERM');
  const result = await exited;
  for (let waited = 0; groupAlive(child.pid!) && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  return result;
}

/** Resolves with how `child` ended (at once if it already has). */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}
