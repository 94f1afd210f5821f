import madge from 'madge';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

/*
 * The tenancy boundary, checked on the sources (docs/architecture.md#the-tenancy-rule):
 * the root of @memory-bank/db exports only scoped query helpers, and what crosses tenants
 * (@memory-bank/db/system) is imported only by the few places allowed to.
 */

const repo = join(import.meta.dirname, '../../..');
const api = join(repo, 'apps/api/src');
const db = join(repo, 'packages/db/src');

function sources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Where the system entry point may be imported: authentication (the OAuth authorization server too), the operator's tools, the archive, the process entry points, system health, background maintenance (the embedding backfill too). */
const SYSTEM_IMPORTERS = [
  /^archive\//,
  /^auth\/oidc\.ts$/,
  /^oauth\//,
  /^services\/authentication\.ts$/,
  /^services\/operator\.ts$/,
  /^services\/system\.ts$/,
  /^services\/maintenance\.ts$/,
  /^embeddings\/backfill\.ts$/,
  /^cli\.ts$/,
  /^main\.ts$/,
];

/** Exported functions of a module with their parameter lists (up to the matching parenthesis). */
function exportedFunctions(source: string): { name: string; params: string }[] {
  const found: { name: string; params: string }[] = [];
  for (const match of source.matchAll(/^export (?:async )?function (\w+)(?:<[^(]*>)?\(/gm)) {
    let depth = 1;
    let end = match.index + match[0].length;
    while (depth > 0 && end < source.length) {
      const char = source[end++];
      if (char === '(') depth += 1;
      if (char === ')') depth -= 1;
    }
    found.push({ name: match[1]!, params: source.slice(match.index + match[0].length, end - 1) });
  }
  return found;
}

describe('the tenancy boundary', () => {
  it('keeps @memory-bank/db/system out of tenant code', () => {
    const importers = sources(api)
      .filter((file) => /from '@memory-bank\/db\/system'/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(api, file).replaceAll('\\', '/'));
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((file) => !SYSTEM_IMPORTERS.some((allowed) => allowed.test(file)))).toEqual([]);
  });

  it('gives every query helper of the root package a scope', () => {
    const queries = sources(join(db, 'queries')).flatMap((file) =>
      exportedFunctions(readFileSync(file, 'utf8')).map((fn) => ({ ...fn, file: relative(db, file) })),
    );
    const database = queries.filter((fn) => /\b(ex|db|tx): (Executor|Database)\b/.test(fn.params));
    expect(database.length).toBeGreaterThan(30);
    expect(database.filter((fn) => !/: (OwnerScope|OrgScope)\b/.test(fn.params)).map((fn) => `${fn.file} ${fn.name}`)).toEqual([]);
  });

  it('exports from the root package only scoped queries and what holds no SQL', () => {
    const root = readFileSync(join(db, 'index.ts'), 'utf8');
    const modules = [...root.matchAll(/from '\.\/([^']+)'/g)].map((match) => match[1]!);
    expect(modules.filter((module) => module.startsWith('system'))).toEqual([]);
    expect(root).not.toMatch(/\b(orgScopeOf|ownerScopeOf|openDatabase)\b/);
    for (const module of modules.filter((name) => !name.startsWith('queries/'))) {
      const path = join(db, `${module}${module.endsWith('schema') || module.endsWith('driver') ? '/index' : ''}.ts`);
      const text = readFileSync(path, 'utf8');
      // Building SQL (select/insert/update/delete/execute on an executor) happens only in queries/.
      expect(text, module).not.toMatch(/\b(ex|db|tx)\s*\.\s*(select|insert|update|delete|execute)\(/);
    }
  });
});

describe('layers point down', () => {
  const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)].map((match) => match[1]!);

  it('keeps services, routes and mcp out of auth/, hooks/, archive/ and http/ (but the request context type)', () => {
    const upward = sources(api)
      .map((file) => relative(api, file).replaceAll('\\', '/'))
      .filter((file) => /^(auth|hooks|archive|http)\//.test(file) && file !== 'http/env.ts')
      .flatMap((file) => importsOf(join(api, file)).filter((path) => /^\.\.\/(services|routes|mcp)(\/|$)/.test(path)).map((path) => `${file} → ${path}`));
    expect(upward).toEqual([]);
  });
});

describe('the import graph', () => {
  // Type-only imports included: a cycle of types is still two modules that cannot be read apart.
  let graph: Awaited<ReturnType<typeof madge>>;
  beforeAll(async () => {
    graph = await madge([api, db], {
      baseDir: repo,
      fileExtensions: ['ts'],
      detectiveOptions: { ts: { skipTypeImports: false, skipAsyncImports: false } },
    });
  }, 60_000);

  it('has no cycle in apps/api/src and packages/db/src', () => {
    expect(Object.keys(graph.obj()).length).toBeGreaterThan(150);
    expect(graph.circular()).toEqual([]);
  });

  it('keeps services free of the transport: nothing of http/, routes/, mcp/ or the bearer middleware, however indirectly', () => {
    const edges = graph.obj();
    const reached = (from: string): Set<string> => {
      const seen = new Set<string>();
      const stack = [from];
      while (stack.length > 0) for (const next of edges[stack.pop()!] ?? []) if (!seen.has(next)) stack.push((seen.add(next), next));
      return seen;
    };
    const services = Object.keys(edges).filter((file) => file.startsWith('apps/api/src/services/'));
    expect(services.length).toBeGreaterThan(10);
    const transport = /^apps\/api\/src\/(http|routes|mcp)\/|^apps\/api\/src\/auth\/bearer\.ts$/;
    expect(services.flatMap((file) => [...reached(file)].filter((dep) => transport.test(dep)).map((dep) => `${file} → ${dep}`))).toEqual([]);
  });
});

describe('libraries stay libraries', () => {
  const driver = join(db, 'driver');
  const outsideDriver = [...sources(api), ...sources(db)].filter((file) => !file.startsWith(driver));

  it('reaches into mysql2 and drizzle beyond their public API only in packages/db/src/driver', () => {
    const offending = outsideDriver.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [/\bas unknown as\b/, /\._(?:allConnections|freeConnections|connectionQueue)\b/, /\.pool\.pool\b/, /\bbodyCache\b/, /\$client\b/]
        .filter((pattern) => pattern.test(text))
        .map((pattern) => `${relative(repo, file)}: ${pattern.source}`);
    });
    expect(offending).toEqual([]);
  });
});
