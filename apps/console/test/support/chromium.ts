import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium as playwright, type Browser } from 'playwright-core';

/** Debian's and Ubuntu's Chromium, when the machine has one. */
export const SYSTEM_CHROMIUMS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
/** A system Chromium runs as root in CI: no sandbox then. */
const SYSTEM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];
/**
 * @sparticuz/chromium's flags are for serverless functions; of them, two would switch off the
 * same-origin policy and mixed-content blocking, which the console's tests rely on, and
 * --single-process lets one browser context's cookies go with another's fetch() requests
 * (a tab in a fresh context sent the first context's authorization-server session cookie
 * instead of its own interaction cookie).
 */
const NOT_IN_TESTS = new Set(['--disable-web-security', '--allow-running-insecure-content', '--single-process']);

interface LaunchOptions {
  executablePath: string;
  args: string[];
  env?: Record<string, string>;
}

interface Candidate {
  name: string;
  /** Throws saying what is missing. */
  find: () => Promise<LaunchOptions>;
}

function executable(path: string): string {
  accessSync(path, constants.X_OK);
  if (!statSync(path).isFile()) throw new Error(`${path} is not a file`);
  return path;
}

/**
 * The browser the tests drive, the first that launches of: `CHROMIUM_PATH` when set (then
 * nothing else), a system Chromium, the Chromium shipped inside the @sparticuz/chromium dev
 * dependency (Linux x64). No install step, no download. When none works, the error names
 * what each one lacked.
 */
export async function launchChromium(): Promise<Browser> {
  const failures: string[] = [];
  for (const candidate of candidates()) {
    let found: LaunchOptions;
    try {
      found = await candidate.find();
    } catch (error) {
      failures.push(`${candidate.name}: ${reason(error)}`);
      continue;
    }
    try {
      return await playwright.launch(found);
    } catch (error) {
      failures.push(`${candidate.name} (${found.executablePath}) did not start: ${reason(error).split('\n')[0]}`);
    }
  }
  throw new Error(
    `No Chromium for the console's browser tests:\n${failures.map((failure) => `  - ${failure}`).join('\n')}\n` +
      'Set CHROMIUM_PATH to a Chromium or Chrome executable, install one (apt-get install chromium), or reinstall the dev dependencies (pnpm install) for @sparticuz/chromium.',
  );
}

function candidates(): Candidate[] {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return [{ name: `CHROMIUM_PATH=${configured}`, find: async () => ({ executablePath: executable(configured), args: SYSTEM_ARGS }) }];
  return [
    ...SYSTEM_CHROMIUMS.map((path) => ({
      name: path,
      find: async () => {
        if (!existsSync(path)) throw new Error('missing');
        return { executablePath: executable(path), args: SYSTEM_ARGS };
      },
    })),
    { name: '@sparticuz/chromium', find: () => shippedChromium(false) },
    // A machine without NSS (libnss3; Debian's slim images): the libraries the package ships for
    // Amazon Linux 2023 serve, put first on LD_LIBRARY_PATH.
    { name: '@sparticuz/chromium with its own NSS libraries', find: () => shippedChromium(true) },
  ];
}

/**
 * @sparticuz/chromium unpacks its browser into the temp dir (`<tmp>/chromium`, its libraries
 * into `<tmp>/al2023/lib`) on first use and takes what is there as done. Test files run in
 * parallel processes, and an interrupted unpack would leave a truncated file forever: so one
 * process at a time unpacks (a lock directory), and a marker written afterwards says the
 * unpack of this version finished.
 */
async function shippedChromium(ownLibraries: boolean): Promise<{ executablePath: string; args: string[]; env?: Record<string, string> }> {
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`ships Linux x64 only (this is ${process.platform} ${process.arch})`);
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve('@sparticuz/chromium');
  } catch {
    throw new Error('not installed (pnpm install)');
  }
  // <package>/build/index.js; its package.json is not among its exports.
  const root = join(dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const { default: chromium, inflate } = await import('@sparticuz/chromium');
  const args = chromium.args.filter((arg) => !NOT_IN_TESTS.has(arg));
  const marker = join(tmpdir(), `.memory-bank-sparticuz-chromium-${version}`);
  const browser = join(tmpdir(), 'chromium');
  const libraries = join(tmpdir(), 'al2023');
  const unpacked = () => existsSync(marker) && existsSync(browser) && existsSync(libraries);
  if (!unpacked()) {
    const lock = join(tmpdir(), '.memory-bank-sparticuz-chromium.lock');
    await acquire(lock);
    try {
      if (!unpacked()) {
        // A partial unpack, or another version's.
        rmSync(browser, { force: true });
        rmSync(libraries, { recursive: true, force: true });
        await chromium.executablePath();
        await inflate(join(root, 'bin', 'al2023.tar.br'));
        writeFileSync(marker, `${browser}\n`);
      }
    } finally {
      rmdirSync(lock);
    }
  }
  const executablePath = await chromium.executablePath();
  if (!ownLibraries) return { executablePath, args };
  const inherited = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const path = [join(libraries, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  return { executablePath, args, env: { ...inherited, LD_LIBRARY_PATH: path } };
}

const LOCK_WAIT_MS = 120_000;
const LOCK_STALE_MS = 60_000;

async function acquire(lock: string): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // A lock older than any unpack (~2 s) was left by a process that died holding it.
    try {
      if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmdirSync(lock);
    } catch {
      // Released meanwhile.
    }
    if (Date.now() > deadline) throw new Error(`${lock} held for over ${LOCK_WAIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
