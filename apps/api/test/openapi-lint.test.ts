import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server';

const REDOCLY = fileURLToPath(new URL('../node_modules/@redocly/cli/bin/cli.js', import.meta.url));

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer?: string }[];
}

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  dir = await mkdtemp(join(tmpdir(), 'mb-openapi-lint-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the OpenAPI document', () => {
  it('passes Redocly’s recommended rules with no error and no warning', async () => {
    const file = join(dir, 'openapi.json');
    await writeFile(file, await (await fetch(`${server.url}/openapi.json`)).text());
    // Offline: no telemetry, no update check; run in an empty folder so no stray redocly.yaml applies.
    const run = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', file, '--extends=recommended', '--format=json'], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((failure: { stdout?: string }) => ({ stdout: failure.stdout ?? '' }));
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as { problems: LintProblem[] };
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
    expect(problems).toEqual([]);
  }, 60_000);
});
