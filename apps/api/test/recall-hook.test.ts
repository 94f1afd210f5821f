/**
 * integrations/recall.sh as Claude Code runs it: installed by integrations/install.sh into a
 * temporary HOME, its command taken from integrations/claude-code/settings.json, run by
 * `sh -c` with a realistic hook payload on stdin, against the real server — and against a
 * stopped one and one that never answers.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, HOOK_SETTINGS, newSessionId, UNHURRIED_HOOKS } from './support/hooks';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';
import { expectStatus } from './support/http';

const INTEGRATIONS = fileURLToPath(new URL('../../../integrations/', import.meta.url));
const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
/** What the hook may take, whatever happens (the harness waits for it). */
const HOOK_DEADLINE_MS = 1500;

interface HookRun {
  code: number | null;
  stdout: string;
  ms: number;
}

/** The hook commands settings.json installs for `event`, in order. */
function hookCommands(event: 'SessionStart' | 'UserPromptSubmit'): string[] {
  const settings = JSON.parse(readFileSync(join(INTEGRATIONS, 'claude-code/settings.json'), 'utf8')) as {
    hooks: Record<string, { hooks: { command: string }[] }[]>;
  };
  return settings.hooks[event]!.flatMap((group) => group.hooks.map((hook) => hook.command));
}

let home: string;
const recallCommand = () => {
  const command = hookCommands('UserPromptSubmit').find((c) => c.includes('recall.sh'));
  expect(command).toBe('~/.memory-bank/recall.sh claude-code');
  return command!;
};

/** Runs a hook command as Claude Code does: through the shell, the payload on stdin. */
function runHook(command: string, payload: unknown, env: Record<string, string>): Promise<HookRun> {
  const started = performance.now();
  const child = spawn('sh', ['-c', command], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stdin.on('error', () => {}); // the hook may exit without reading its input (no key, an event it ignores)
  child.stdin.end(JSON.stringify(payload));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, ms: performance.now() - started })));
}

let server: TestServer;
let ana: TestUser;
let colleague: TestUser;
let outsider: TestUser;
const cwd = '/home/ana/capybara-shop';
const memories: Record<string, string> = {};

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'mb-recall-home-'));
  const installed = spawnSync('sh', [join(INTEGRATIONS, 'install.sh')], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home }, encoding: 'utf8' });
  expect(installed.status, installed.stderr).toBe(0);

  server = await startTestServer();
  const tenant = await createTenant(server.services, server.url);
  ana = tenant.owner;
  colleague = await tenant.addMember();
  outsider = (await createTenant(server.services, server.url, 'Other org')).owner;
  const remember = async (user: TestUser, name: string, content: string, scope: 'user' | 'org' = 'user') => {
    const res = await user.api.post('/v1/memory', { body: { content, scope } });
    expectStatus(res, 201);
    memories[name] = res.body.id;
  };
  await remember(ana, 'seed', 'capybara-shop: run `make seed` before the checkout tests, or they fail on an empty catalogue.');
  await remember(ana, 'express', 'The checkout module imports express 4; keep it out of devDependencies.');
  await remember(ana, 'rolling', 'Rolling deploys of the storefront: fly deploy --strategy rolling, one region at a time.');
  await remember(ana, 'shared', 'Team rule for capybara-shop: never deploy checkout on Fridays.', 'org');
  await remember(colleague, 'colleague', 'Colleague private: capybara-shop checkout express notes.');
  await remember(outsider, 'outsider', 'Other org: capybara-shop checkout express secrets.');
  // Ana's previous session in the same directory.
  const previous = newSessionId();
  for (const name of ['session-start', 'user-prompt-submit', 'stop']) {
    expect((await ana.api.post('/v1/hooks/claude-code', { body: fixture('claude-code', name, { session_id: previous, cwd }) })).status).toBe(202);
  }
});

afterAll(async () => {
  await server?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe.runIf(has('curl'))('the installed Claude Code recall hook', () => {
  it('is installed next to the forwarder and wired on SessionStart and UserPromptSubmit', () => {
    expect(statSync(join(home, '.memory-bank/recall.sh')).mode & 0o111).not.toBe(0);
    expect(hookCommands('SessionStart')).toEqual(['~/.memory-bank/forward.sh claude-code', '~/.memory-bank/recall.sh claude-code']);
    expect(hookCommands('UserPromptSubmit')).toEqual(['~/.memory-bank/forward.sh claude-code', '~/.memory-bank/recall.sh claude-code']);
  });

  it('prints the project’s memories and the last session’s note on SessionStart, and the prompt’s memories on UserPromptSubmit — only the user’s own and org-shared ones', async () => {
    const env = { MEMORY_BANK_URL: server.url, MEMORY_BANK_API_KEY: ana.key, ...UNHURRIED_HOOKS };
    const sessionId = newSessionId();
    const start = await runHook(recallCommand(), fixture('claude-code', 'session-start', { session_id: sessionId, cwd }), env);
    expect(start.code).toBe(0);
    const started = JSON.parse(start.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(Object.keys(started)).toEqual(['hookSpecificOutput']);
    expect(started.hookSpecificOutput.hookEventName).toBe('SessionStart');
    const startContext = started.hookSpecificOutput.additionalContext;
    expect(startContext).toContain(`[${memories.seed}] capybara-shop: run \`make seed\``);
    expect(startContext).toContain(`[${memories.shared}] (shared) Team rule`);
    expect(startContext).toContain(`[${memories.express}] The checkout module imports express 4`);
    expect(startContext).not.toContain(memories.rolling!);
    expect(startContext).toContain("- You asked: The checkout test fails with 'Cannot find module express'. Can you fix it?");
    expect(startContext).toContain('- The reply: Fixed: express was missing from package.json.');

    const prompt = await runHook(
      recallCommand(),
      fixture('claude-code', 'user-prompt-submit', { session_id: sessionId, cwd, prompt: 'How do I do a rolling deploy of the storefront?' }),
      env,
    );
    expect(prompt.code).toBe(0);
    const prompted = JSON.parse(prompt.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(prompted.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(prompted.hookSpecificOutput.additionalContext).toContain(`[${memories.rolling}] Rolling deploys of the storefront`);
    // Shown at session start: not repeated.
    expect(prompted.hookSpecificOutput.additionalContext).not.toContain(memories.seed!);

    for (const output of [start.stdout, prompt.stdout]) {
      expect(output).not.toContain(memories.colleague!);
      expect(output).not.toContain(memories.outsider!);
      expect(output).not.toContain('Colleague private');
      expect(output).not.toContain('Other org');
    }
  });

  it('prints {} when nothing is new, for other events, without a key, and when the key is refused', async () => {
    const env = { MEMORY_BANK_URL: server.url, MEMORY_BANK_API_KEY: ana.key, ...UNHURRIED_HOOKS };
    const unrelated = await runHook(recallCommand(), fixture('claude-code', 'user-prompt-submit', { session_id: newSessionId(), prompt: 'zzzqqq xyzzy' }), env);
    expect(unrelated.stdout).toBe('{}\n');
    const tool = await runHook('~/.memory-bank/recall.sh claude-code', fixture('claude-code', 'pre-tool-use-bash', { session_id: newSessionId() }), env);
    expect(tool.stdout).toBe('{}\n');
    const noKey = await runHook(recallCommand(), fixture('claude-code', 'user-prompt-submit'), { MEMORY_BANK_URL: server.url });
    expect(noKey).toMatchObject({ code: 0, stdout: '{}\n' });
    const refused = await runHook(recallCommand(), fixture('claude-code', 'user-prompt-submit'), { MEMORY_BANK_URL: server.url, MEMORY_BANK_API_KEY: 'mbk_notarealkey' });
    expect(refused).toMatchObject({ code: 0, stdout: '{}\n' });
  });

  it('prints {} within 1.5 s when the server is stopped', async () => {
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const run = await runHook(recallCommand(), fixture('claude-code', 'user-prompt-submit'), { MEMORY_BANK_URL: `http://127.0.0.1:${port}`, MEMORY_BANK_API_KEY: ana.key });
    expect(run).toMatchObject({ code: 0, stdout: '{}\n' });
    expect(run.ms).toBeLessThan(HOOK_DEADLINE_MS);
  });

  it('prints {} within 1.5 s when the server accepts and never answers', async () => {
    const sockets: Socket[] = [];
    let accepted = 0;
    const hanging: TcpServer = createTcpServer((socket) => {
      accepted += 1;
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
      for (const event of ['session-start', 'user-prompt-submit']) {
        const run = await runHook(recallCommand(), fixture('claude-code', event), { MEMORY_BANK_URL: url, MEMORY_BANK_API_KEY: ana.key });
        expect(run).toMatchObject({ code: 0, stdout: '{}\n' });
        expect(run.ms).toBeLessThan(HOOK_DEADLINE_MS);
      }
      expect(accepted).toBe(2);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });
});

type PluginHook = (...args: unknown[]) => Promise<void>;

describe('the OpenCode plugin’s recall', () => {
  const saved = { ...process.env };
  let imports = 0;
  // A checkout of the same project elsewhere, with a session of its own before: the Claude
  // Code tests' "last time" stays theirs whichever runs first.
  const directory = '/home/ana/opencode/capybara-shop';
  beforeAll(async () => {
    const previous = newSessionId();
    for (const name of ['session-start', 'user-prompt-submit', 'stop']) {
      expect((await ana.api.post('/v1/hooks/claude-code', { body: fixture('claude-code', name, { session_id: previous, cwd: directory }) })).status).toBe(202);
    }
  });
  afterAll(() => {
    for (const name of HOOK_SETTINGS) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  /** A fresh instance of the plugin (it reads its environment when loaded); `unhurried` against the live service, the default deadlines otherwise. */
  async function loadPlugin(url: string, unhurried = false): Promise<Record<string, PluginHook>> {
    Object.assign(process.env, { MEMORY_BANK_URL: url, MEMORY_BANK_API_KEY: ana.key, MEMORY_BANK_SPOOL: join(home, 'opencode-spool') });
    for (const [name, value] of Object.entries(UNHURRIED_HOOKS)) {
      if (unhurried) process.env[name] = value;
      else delete process.env[name];
    }
    const module = (await import(`${pathToFileURL(join(INTEGRATIONS, 'opencode/memory-bank.js')).href}?recall=${++imports}`)) as {
      MemoryBank: (input: { directory: string }) => Promise<Record<string, PluginHook>>;
    };
    return module.MemoryBank({ directory });
  }

  it('appends the session’s recalled memories to the system prompt of its model calls', async () => {
    const hooks = await loadPlugin(server.url, true);
    const sessionID = `ses_${newSessionId()}`;
    const first = { system: ['You are OpenCode.'] };
    await hooks['experimental.chat.system.transform']!({ sessionID, model: {} }, first);
    expect(first.system).toHaveLength(1);
    expect(first.system[0]).toMatch(/^You are OpenCode\.\n\nMemory Bank recalled/);
    expect(first.system[0]).toContain(`[${memories.seed}]`);
    expect(first.system[0]).toContain('Last time in this project');

    await hooks['chat.message']!({ sessionID, messageID: 'msg_1' }, { message: { id: 'msg_1' }, parts: [{ type: 'text', text: 'How do I do a rolling deploy of the storefront?' }] });
    const next = { system: ['You are OpenCode.'] };
    await hooks['experimental.chat.system.transform']!({ sessionID, model: {} }, next);
    expect(next.system[0]).toContain(`[${memories.rolling}] Rolling deploys`);
    expect(next.system[0]).toContain(`[${memories.seed}]`); // earlier recalls stay in the session's context
    expect(next.system[0]).not.toContain(memories.colleague!);
    expect(next.system[0]).not.toContain(memories.outsider!);
  });

  it('adds nothing, within 1.5 s, when the server never answers', async () => {
    const sockets: Socket[] = [];
    const hanging = createTcpServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const hooks = await loadPlugin(`http://127.0.0.1:${(hanging.address() as AddressInfo).port}`);
      const output = { system: ['You are OpenCode.'] };
      const started = performance.now();
      await hooks['experimental.chat.system.transform']!({ sessionID: 'ses_hanging', model: {} }, output);
      expect(performance.now() - started).toBeLessThan(HOOK_DEADLINE_MS + 200);
      expect(output.system).toEqual(['You are OpenCode.']);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });
});
