import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { recordStatements } from './sql-recorder.mjs';
import { checkStatement } from './sql-tenancy';

/*
 * Runs before every test file (vitest.config.ts setupFiles): records each statement shape
 * the file sends — from this worker, and from the processes its tests spawn (NODE_OPTIONS
 * loads sql-recorder-child.mjs into them) — and fails the file when one breaks the
 * shard-readiness rule of sql-tenancy.ts, naming the statement and the first test that
 * sent it. Each worker and each file has its own record, so parallel files do not mix.
 */

const firstSentBy = new Map<string, string>();
const stop = recordStatements((shape: string) => firstSentBy.set(shape, expect.getState().currentTestName ?? '(outside a test: set-up or teardown)'));
const directory = mkdtempSync(join(tmpdir(), 'mb-sql-'));
const saved = { directory: process.env.SQL_TENANCY_RECORD_DIR, options: process.env.NODE_OPTIONS };
process.env.SQL_TENANCY_RECORD_DIR = directory;
process.env.NODE_OPTIONS = [saved.options, `--import=${new URL('./sql-recorder-child.mjs', import.meta.url).href}`].filter(Boolean).join(' ');

function restore(name: 'SQL_TENANCY_RECORD_DIR' | 'NODE_OPTIONS', value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

afterAll(() => {
  stop();
  restore('SQL_TENANCY_RECORD_DIR', saved.directory);
  restore('NODE_OPTIONS', saved.options);
  for (const file of readdirSync(directory)) {
    for (const line of readFileSync(join(directory, file), 'utf8').split('\n')) {
      if (!line) continue;
      const shape = JSON.parse(line) as string;
      if (!firstSentBy.has(shape)) firstSentBy.set(shape, '(a process a test spawned)');
    }
  }
  rmSync(directory, { recursive: true, force: true });
  // SQL_TENANCY_DUMP=<file>: append every shape, to review what the suite sends.
  const dump = process.env.SQL_TENANCY_DUMP;
  if (dump) for (const [shape, test] of firstSentBy) appendFileSync(dump, `${JSON.stringify({ shape, test, file: expect.getState().testPath })}\n`);
  const violations = [...firstSentBy].flatMap(([shape, test]) => {
    const violation = checkStatement(shape);
    return violation ? [`- ${violation.problem}\n  statement: ${violation.statement}\n  first sent by: ${test}`] : [];
  });
  if (violations.length > 0) {
    throw new Error(
      `${violations.length} statement(s) on tenant tables without an org_id = <value> predicate (docs/scaling.md#the-sharding-key; ` +
        `fix the query, or add a reviewed entry to ALLOWED in apps/api/test/support/sql-tenancy.ts):\n${violations.join('\n')}`,
    );
  }
});
