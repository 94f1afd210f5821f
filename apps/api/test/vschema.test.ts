import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as schema from '@memory-bank/db';
import { is } from 'drizzle-orm';
import { getTableConfig, MySqlTable } from 'drizzle-orm/mysql-core';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/process';
import { TENANT_KEY } from './support/sql-tenancy';

/*
 * deploy/vitess/vschema.json against the schema (docs/scaling.md#the-sharding-key): every
 * table sharded by its org, once; every key either starts with the org or is globally
 * unique by construction; what must be unique across orgs has a lookup vindex.
 */

interface Vindex {
  type: string;
  params?: Record<string, string>;
  owner?: string;
}
interface ColumnVindex {
  column?: string;
  columns?: string[];
  name: string;
}
interface Keyspace {
  sharded: boolean;
  vindexes?: Record<string, Vindex>;
  tables: Record<string, { column_vindexes?: ColumnVindex[] }>;
}

const vschema = JSON.parse(readFileSync(join(REPO_ROOT, 'deploy/vitess/vschema.json'), 'utf8')) as { keyspaces: Record<string, Keyspace> };
const keyspaces = Object.entries(vschema.keyspaces);
const tables = Object.values(schema)
  .filter((value) => is(value, MySqlTable))
  .map((table) => getTableConfig(table));
const columnsOf = (vindex: ColumnVindex) => vindex.columns ?? [vindex.column!];

/**
 * Keys that neither start with org_id nor are a generated id alone — each unique across
 * orgs by construction, so a shard never holds a key another shard could also hold.
 */
const GLOBAL_BY_CONSTRUCTION: Record<string, string> = {
  'workstream_events.workstream_id':
    '(workstream_id, sequence) and (workstream_id, event_id): workstream_id is a generated id (ws_ + ULID), so each key lives in the shard of its workstream',
  'archive_segments.object_key': 'object keys start with orgs/<org id>/ (archive-layout.ts), so no two orgs share one',
  'archive_deletions.object_key': 'object keys start with orgs/<org id>/ (archive-layout.ts), so no two orgs share one',
};

describe('deploy/vitess/vschema.json', () => {
  const sharded = keyspaces.filter(([, keyspace]) => keyspace.sharded);
  const unsharded = keyspaces.filter(([, keyspace]) => !keyspace.sharded);

  it('has one sharded keyspace, with a hash vindex on the org', () => {
    expect(sharded).toHaveLength(1);
    expect(unsharded).toHaveLength(1);
    expect(sharded[0]![1].vindexes?.org_hash?.type).toBe('xxhash');
  });

  it('names every table of the schema exactly once, sharded by its org column first', () => {
    const named = keyspaces.flatMap(([, keyspace]) => Object.keys(keyspace.tables));
    for (const table of tables) {
      expect(named.filter((name) => name === table.name), table.name).toHaveLength(1);
      if (schema.UNSHARDED_TABLES.includes(table.name)) continue;
      const entry = sharded[0]![1].tables[table.name];
      expect(entry, `${table.name} is sharded`).toBeDefined();
      expect(entry!.column_vindexes?.[0]).toEqual({ column: TENANT_KEY.get(table.name), name: 'org_hash' });
    }
  });

  it('keeps in the unsharded keyspace only the lookup tables of its vindexes, the migrations journal and the unsharded tables', () => {
    const [globalName, global] = unsharded[0]!;
    const lookups = Object.values(sharded[0]![1].vindexes ?? {}).flatMap((vindex) => (vindex.params?.table ? [vindex.params.table] : []));
    expect(Object.keys(global.tables).sort()).toEqual(
      [...lookups.map((table) => table.replace(`${globalName}.`, '')), '__drizzle_migrations', ...schema.UNSHARDED_TABLES].sort(),
    );
    for (const lookup of lookups) expect(lookup.startsWith(`${globalName}.`)).toBe(true);
  });

  it('gives every secondary vindex an owner table that has its columns and uses it', () => {
    const [, keyspace] = sharded[0]!;
    for (const [name, vindex] of Object.entries(keyspace.vindexes ?? {})) {
      if (name === 'org_hash') continue;
      expect(vindex.type).toBe('consistent_lookup_unique');
      const owner = tables.find((table) => table.name === vindex.owner);
      expect(owner, name).toBeDefined();
      const from = vindex.params!.from!.split(',');
      for (const column of from) expect(owner!.columns.map((c) => c.name)).toContain(column);
      expect(keyspace.tables[owner!.name]!.column_vindexes!.slice(1).map((v) => ({ name: v.name, columns: columnsOf(v) }))).toContainEqual({ name, columns: from });
    }
  });

  it('has no key that two orgs could both hold, except through a lookup vindex', () => {
    const [, keyspace] = sharded[0]!;
    const lookupColumns = Object.values(keyspace.vindexes ?? {}).flatMap((vindex) => (vindex.owner ? [`${vindex.owner}.${vindex.params!.from}`] : []));
    for (const table of tables.filter((candidate) => !schema.UNSHARDED_TABLES.includes(candidate.name))) {
      const keys = [
        ...table.primaryKeys.map((key) => key.columns.map((column) => column.name)),
        ...table.columns.filter((column) => column.primary).map((column) => [column.name]),
        ...table.indexes.filter((index) => index.config.unique).map((index) => index.config.columns.map((column) => (column as { name: string }).name)),
      ];
      for (const key of keys) {
        const first = `${table.name}.${key[0]}`;
        const ok =
          key[0] === TENANT_KEY.get(table.name) ||
          (key.length === 1 && key[0] === 'id') ||
          first in GLOBAL_BY_CONSTRUCTION ||
          lookupColumns.includes(`${table.name}.${key.join(',')}`);
        expect(ok, `${table.name} (${key.join(', ')})`).toBe(true);
      }
    }
  });

  it('needs no sequence: no column of the schema is AUTO_INCREMENT (ids are prefixed ULIDs made by the service)', () => {
    for (const table of tables) for (const column of table.columns) expect((column as { autoIncrement?: boolean }).autoIncrement, `${table.name}.${column.name}`).toBeFalsy();
  });
});
