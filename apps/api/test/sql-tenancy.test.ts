import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/process';
import { recordStatements, statementShape } from './support/sql-recorder.mjs';
import { ALLOWED, allowanceOf, checkStatement, TENANT_KEY } from './support/sql-tenancy';

/*
 * The checker behind the shard-readiness rule (support/sql-tenancy-setup.ts records every
 * statement of every test file and fails the file on a violation): it must catch a
 * statement that crosses orgs and pass one that names its org.
 */

const problemOf = (statement: string) => checkStatement(statement)?.problem ?? null;

describe('the shard-readiness checker', () => {
  it('catches statements on tenant tables that do not name one org', () => {
    const crossing = [
      'select `id` from `memory` where `memory`.`id` = ?',
      'select `id` from `memory` where (`memory`.`org_id` = ? or `memory`.`user_id` = ?)',
      'select `id` from `memory` where `memory`.`org_id` in (?)',
      'update `workstreams` set `model` = ? where `workstreams`.`id` = ?',
      'delete from `workstream_events` where `workstream_events`.`workstream_id` in (?)',
      'insert into `memory_context` (`id`, `memory_id`, `snippet`) values (?, ?, ?)',
      // joined, but memory_context is not tied to the memory row's org
      'select count(*) from `memory_context` inner join `memory` on `memory`.`id` = `memory_context`.`memory_id` where `memory`.`org_id` = ?',
      // a subquery that reads every org's events
      'select `id` from `workstreams` where `workstreams`.`org_id` = ? and `workstreams`.`id` in (select `workstream_id` from `workstream_events` where `kind` = ?)',
      'select count(*) from `orgs`',
    ];
    for (const statement of crossing) expect(problemOf(statement), statement).not.toBeNull();
    expect(problemOf('select `id` from `memory` where `memory`.`id` = ?')).toBe('SELECT on memory without org_id = <value>');
  });

  it('passes statements that name one org, directly or through a join or an outer query', () => {
    const scoped = [
      'select `id` from `memory` where (`memory`.`id` = ? and (`memory`.`org_id` = ? and (`memory`.`user_id` = ? or `memory`.`scope` = ?)))',
      'select count(*) from `memory_context` inner join `memory` on (`memory`.`id` = `memory_context`.`memory_id` and `memory_context`.`org_id` = `memory`.`org_id`) where `memory`.`org_id` = ?',
      'select `workstreams`.`id` from `workstreams` left join `workstream_events` on (`workstream_events`.`workstream_id` = `workstreams`.`id` and `workstream_events`.`sequence` > COALESCE((SELECT MAX(compacted.sequence) FROM `workstream_events` AS compacted WHERE compacted.org_id = `workstreams`.`org_id` AND compacted.workstream_id = `workstreams`.`id`), ?) and `workstream_events`.`org_id` = ?) where `workstreams`.`org_id` = ?',
      'insert into `memory` (`id`, `org_id`, `content`) values (?, ?, ?)',
      'INSERT INTO `memory_term_stats` (org_id, owner_id, term, docs, tokens) VALUES (?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE docs = docs + VALUES(docs)',
      'select `redact_memory_secrets` from `orgs` where `orgs`.`id` = ?',
      'delete from `idempotency_keys` where (`idempotency_keys`.`org_id` = ? and `idempotency_keys`.`created_at` < ?) limit ?',
      'select `id` from `memory` where (MATCH(`memory`.`search_terms`) AGAINST(? IN BOOLEAN MODE) and `memory`.`org_id` = ?) for update',
      'SELECT 1',
    ];
    for (const statement of scoped) expect(problemOf(statement), statement).toBeNull();
  });

  it('passes the reviewed exceptions, each with its reason, and only them', () => {
    const keyLookup =
      'select `api_keys`.`id`, `users`.`org_id` from `api_keys` inner join `users` on `users`.`id` = `api_keys`.`user_id` where (`api_keys`.`key_hash` = ? and `api_keys`.`revoked_at` is null)';
    expect(allowanceOf(keyLookup)?.by).toMatch(/authentication/);
    expect(problemOf(keyLookup)).toBeNull();
    expect(allowanceOf('-- a comment\nALTER TABLE `users` MODIFY `oidc_issuer` varchar(?)')?.by).toMatch(/migrations/);
    expect(allowanceOf('SELECT COUNT(*) AS n FROM workstream_events WHERE workstream_id = ?')?.by).toMatch(/tests/);
    // A request path's statement by a workstream's id alone is not among them.
    expect(allowanceOf('select `sequence` from `workstream_events` where (`workstream_events`.`workstream_id` = ? and `workstream_events`.`event_id` = ?)')).toBeUndefined();
    for (const allowed of ALLOWED) expect(allowed.reason.length, allowed.by).toBeGreaterThan(40);
  });

  it('knows every table of the schema, each with the column that names its org', () => {
    expect(TENANT_KEY.get('orgs')).toBe('id');
    expect(TENANT_KEY.get('workstream_events')).toBe('org_id');
    expect(TENANT_KEY.size).toBeGreaterThanOrEqual(12);
  });

  it('keeps statements as shapes: no literal, whatever the row count', () => {
    expect(statementShape("insert into `memory` (`id`, `content`) values ('mem_1', 'it''s \\'secret\\''), ('mem_2', X'00ff'), ('mem_3', -1.5e3), ('mem_4', NULL)")).toBe(
      'insert into `memory` (`id`, `content`) values (?, ?)',
    );
    expect(statementShape("select `t1`.`a` from `t1` where `a` in ('x', 'y', 3) and `b` is null limit 20")).toBe('select `t1`.`a` from `t1` where `a` in (?) and `b` is null limit ?');
  });

  it('records the statements this process sends through mysql2', async () => {
    const shapes: string[] = [];
    const stop = recordStatements((shape) => shapes.push(shape));
    const connection = await mysql.createConnection({ uri: process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306' });
    try {
      await connection.query('SELECT ? AS tenancy_probe', ['x']);
      await connection.execute('SELECT ? AS tenancy_probe_executed', [1]);
    } finally {
      await connection.end();
      stop();
    }
    expect(shapes).toContain('SELECT ? AS tenancy_probe');
    expect(shapes).toContain('SELECT ? AS tenancy_probe_executed');
  });

  it('records the statements of a process a test spawns, through NODE_OPTIONS', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'mb-sql-probe-'));
    try {
      const script = `const m = require('mysql2'); const c = m.createConnection({ uri: ${JSON.stringify(process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306')} }); c.query("SELECT 'child' AS tenancy_child_probe", () => c.end());`;
      const code = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, ['-e', script], { cwd: join(REPO_ROOT, 'apps/api'), env: { ...process.env, SQL_TENANCY_RECORD_DIR: directory }, stdio: 'inherit' });
        child.on('error', reject);
        child.on('close', resolve);
      });
      expect(code).toBe(0);
      expect(process.env.NODE_OPTIONS).toContain('sql-recorder-child.mjs');
      const recorded = readdirSync(directory).flatMap((file) => readFileSync(join(directory, file), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)));
      expect(recorded).toContain('SELECT ? AS tenancy_child_probe');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('finds no hand-written statement on a tenant table in the sources (what the tests exception relies on)', () => {
    const tables = [...TENANT_KEY.keys()].join('|');
    const handWritten = new RegExp(`\\b(?:from|into|update|join)\\s+(?:${tables})\\b[^\\n]*\\b(?:where|set|values|on)\\b`, 'i');
    const offenders: string[] = [];
    for (const root of ['apps/api/src', 'packages/db/src']) {
      for (const entry of readdirSync(join(REPO_ROOT, root), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
        const source = readFileSync(join(entry.parentPath, entry.name), 'utf8');
        for (const literal of source.match(/`[^`]*`|'[^'\n]*'|"[^"\n]*"/g) ?? []) if (handWritten.test(literal)) offenders.push(`${entry.name}: ${literal.slice(0, 80)}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
