import { execFile, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { dropDatabase } from '@memory-bank/db/system';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
// @ts-expect-error build.mjs is plain JavaScript without types.
import { ensureBuilt } from '../build.mjs';
import { loadConfig } from '../src/config';
import { SHUTDOWN_LIMITS } from '../src/limits';
import { freshDatabaseUrl } from './support/database';
import { exited, REPO_ROOT } from './support/process';

const run = promisify(execFile);

interface Instruction {
  name: string;
  args: string;
}

/** The Dockerfile's instructions, continuation lines joined, comments dropped, ARG defaults substituted. */
function dockerfile(): Instruction[] {
  const text = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
  const logical = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ');
  const defaults: Record<string, string> = {};
  const instructions: Instruction[] = [];
  for (const line of logical.split('\n')) {
    const match = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const [, name, raw] = match as unknown as [string, string, string];
    const args = raw.replace(/\$\{(\w+)\}/g, (_, variable: string) => defaults[variable] ?? `\${${variable}}`).trim();
    if (name === 'ARG') {
      const [variable, value] = args.split('=');
      if (value !== undefined) defaults[variable!] = value;
    }
    instructions.push({ name, args });
  }
  return instructions;
}

/** The instructions of the last stage: what the image runs. */
function runtimeStage(instructions: Instruction[]): Instruction[] {
  const start = instructions.map((instruction) => instruction.name).lastIndexOf('FROM');
  return instructions.slice(start);
}

const execForm = (args: string): string[] => JSON.parse(args.slice(args.indexOf('['))) as string[];

describe('the Dockerfile', () => {
  const instructions = dockerfile();
  const runtime = runtimeStage(instructions);
  const one = (name: string) => runtime.filter((instruction) => instruction.name === name);

  it('builds on a pinned current LTS Node in one stage and runs from another', () => {
    const bases = instructions.filter((instruction) => instruction.name === 'FROM').map((instruction) => instruction.args.split(/\s+/)[0]!);
    expect(bases).toHaveLength(2);
    for (const base of bases) expect(base).toMatch(/^node:24\.\d+\.\d+-bookworm-slim$/);
    const build = instructions.slice(0, instructions.indexOf(runtime[0]!));
    const buildRuns = build.filter((instruction) => instruction.name === 'RUN').map((instruction) => instruction.args).join(' && ');
    expect(buildRuns).toMatch(/npm install -g pnpm@\d+\.\d+\.\d+/);
    expect(buildRuns).toContain('pnpm build');
    expect(buildRuns).toContain('sh apps/api/runtime-tree.sh /runtime');
    expect(one('COPY').map((instruction) => instruction.args)).toEqual(['--from=build /runtime ./']);
    // No pnpm and no build step at run time.
    expect(runtime.filter((instruction) => instruction.name === 'RUN').map((instruction) => instruction.args).join(' ')).not.toMatch(/pnpm|npm /);
  });

  it('runs node as PID 1 as a non-root user, exposes its port and checks its health without curl', () => {
    // The same command as `pnpm start`, heap bound and environment included (docs/operations.md#running).
    const start = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).scripts.start as string;
    expect(start).toMatch(/^MALLOC_ARENA_MAX=\d+ exec node --max-old-space-size=\d+ apps\/api\/launch\.mjs main$/);
    const [assignments, command] = start.split(' exec ') as [string, string];
    expect(execForm(one('CMD')[0]!.args)).toEqual(command.split(' '));
    const env = one('ENV').map((instruction) => instruction.args).join(' ').split(/\s+/);
    for (const assignment of assignments.split(' ')) expect(env).toContain(assignment);
    expect(one('ENTRYPOINT')).toEqual([]);
    const user = one('USER').at(-1)!.args;
    expect(['root', '0']).not.toContain(user);
    expect(one('EXPOSE').map((instruction) => instruction.args)).toEqual(['8787']);
    expect(one('ENV').map((instruction) => instruction.args).join(' ')).toMatch(/\bPORT=8787\b/);
    const healthcheck = one('HEALTHCHECK')[0]!.args;
    expect(execForm(healthcheck).slice(0, 2)).toEqual(['node', '-e']);
    expect(healthcheck).toContain('/healthz');
  });
});

describe("the image's runtime tree, assembled as the Dockerfile assembles it", () => {
  const created: string[] = [];
  afterAll(async () => {
    for (const path of created) rmSync(path, { recursive: true, force: true });
  });

  // setpriv needs root to change user; CI machines run the suite as root.
  it.skipIf(process.getuid?.() !== 0)(
    'runs the CMD as an unprivileged user on a root-owned copy: creates and migrates the database, answers /healthz and the HEALTHCHECK, writes nothing, exits 0 on SIGTERM',
    async () => {
      await ensureBuilt();
      const tree = mkdtempSync(join(tmpdir(), 'mb-image-'));
      const archive = mkdtempSync(join(tmpdir(), 'mb-image-archive-'));
      created.push(tree, archive);
      await run('sh', ['apps/api/runtime-tree.sh', tree], { cwd: REPO_ROOT });
      await run('chmod', ['-R', 'a+rX,go-w', tree]);
      chownSync(archive, 65534, 65534);
      expect(existsSync(join(tree, 'apps/api/src'))).toBe(false);
      expect(existsSync(join(tree, 'apps/api/node_modules/vitest'))).toBe(false); // production dependencies only
      const before = readdirSync(tree, { recursive: true }).sort();

      const runtime = runtimeStage(dockerfile());
      const cmd = execForm(runtime.find((instruction) => instruction.name === 'CMD')!.args);
      const healthcheck = execForm(runtime.find((instruction) => instruction.name === 'HEALTHCHECK')!.args);
      const databaseUrl = freshDatabaseUrl(inject('databaseServerUrl'), 'image');
      const unprivileged = ['--reuid=65534', '--regid=65534', '--clear-groups'];
      const env = { PATH: process.env.PATH!, NODE_ENV: 'production', DATABASE_URL: databaseUrl, PORT: '0', ARCHIVE_URL: `file://${archive}` };
      const server = spawn('setpriv', [...unprivileged, ...cmd], { cwd: tree, env, stdio: ['ignore', 'pipe', 'pipe'] });
      const exit = exited(server);
      let stdout = '';
      let stderr = '';
      server.stdout.on('data', (chunk) => (stdout += chunk));
      server.stderr.on('data', (chunk) => (stderr += chunk));
      try {
        await expect.poll(() => stdout.includes('"msg":"listening"') || server.exitCode !== null, { timeout: 60_000, interval: 50 }).toBe(true);
        expect(server.exitCode, stderr).toBe(null);
        const listening = stdout.split('\n').find((line) => line.includes('"msg":"listening"'))!;
        const { port } = JSON.parse(listening) as { port: number };
        expect(stdout).toContain('"created":true');
        expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
        // The web console built at image build is served from the runtime tree.
        const consolePage = await fetch(`http://127.0.0.1:${port}/console`);
        expect(consolePage.status).toBe(200);
        expect(await consolePage.text()).toContain('<script type="module"');
        const probe = await run('setpriv', [...unprivileged, ...healthcheck], { cwd: tree, env: { ...env, PORT: String(port) } }).then(
          () => 0,
          (error: { code: number }) => error.code,
        );
        expect(probe).toBe(0);
        // The embedding model (the default provider) loads in its worker thread from the runtime tree's packages.
        await expect.poll(() => stdout.includes('"msg":"embedding model loaded"') || stdout.includes('did not load'), { timeout: 60_000, interval: 50 }).toBe(true);
        expect(stdout).toContain('"msg":"embedding model loaded"');
      } finally {
        server.kill('SIGTERM');
        expect(await exit).toEqual({ code: 0, signal: null });
        await dropDatabase(databaseUrl);
      }
      expect(readdirSync(tree, { recursive: true }).sort()).toEqual(before);
    },
    180_000,
  );
});

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, { image?: string; build?: unknown; environment?: Record<string, string>; healthcheck?: { test: string[] }; depends_on?: Record<string, { condition: string }>; stop_grace_period?: string; entrypoint?: string }>;
  };
  const { api, mysql } = compose.services;

  it('pins every image to an exact version', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (!service.image) continue;
      expect(service.image, name).toMatch(/:(\d+\.\d+\.\d+|RELEASE\.[\dT-]+Z)(-[a-z0-9.-]+)?(@sha256:[0-9a-f]{64})?$/);
    }
  });

  it('builds the API from the Dockerfile with a configuration the server accepts', () => {
    expect(api!.build).toBe('.');
    const env = api!.environment!;
    expect(() => loadConfig(env)).not.toThrow();
    const database = new URL(env.DATABASE_URL!);
    expect(database.hostname).toBe('mysql');
    expect(database.pathname).toBe(`/${mysql!.environment!.MYSQL_DATABASE}`);
    expect(database.password).toBe(mysql!.environment!.MYSQL_ROOT_PASSWORD);
    const bucket = new URL(env.ARCHIVE_URL!).hostname;
    expect(compose.services['minio-setup']!.entrypoint).toContain(`local/${bucket}`);
  });

  it('starts the API once MySQL is healthy and the bucket exists, checks its readiness, and lets it drain on stop', () => {
    expect(api!.depends_on).toMatchObject({ mysql: { condition: 'service_healthy' }, 'minio-setup': { condition: 'service_completed_successfully' } });
    expect(mysql!.healthcheck!.test[0]).toBe('CMD');
    expect(api!.healthcheck!.test.slice(0, 3)).toEqual(['CMD', 'node', '-e']);
    expect(api!.healthcheck!.test[3]).toContain('/readyz');
    const grace = Number(/^(\d+)s$/.exec(api!.stop_grace_period ?? '')?.[1]) * 1000;
    const drain = loadConfig(api!.environment!).SHUTDOWN_DRAIN_MS;
    expect(grace).toBeGreaterThan(drain + SHUTDOWN_LIMITS.cleanupMs);
  });
});
