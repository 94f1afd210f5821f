// Loaded with NODE_OPTIONS=--import into the processes a test spawns (set by
// sql-tenancy-setup.ts): appends each new statement shape to $SQL_TENANCY_RECORD_DIR/<pid>.jsonl,
// which the test file's worker checks when the file ends.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordStatements } from './sql-recorder.mjs';

const directory = process.env.SQL_TENANCY_RECORD_DIR;
if (directory) {
  const file = join(directory, `${process.pid}.jsonl`);
  recordStatements((shape) => appendFileSync(file, `${JSON.stringify(shape)}\n`));
}
