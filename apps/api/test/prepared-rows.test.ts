import { memory, type Executor } from '@memory-bank/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedOn } from '../../../packages/db/src/prepared';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestUser } from './support/tenants';

let server: TestServer;
let user: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  user = (await createTenant(server.services, server.url)).owner;
});
afterAll(() => server.close());

// Every kind of selected field: columns (DATETIME → Date, JSON, unsigned integers, enums),
// SQL with a decoder (mapWith), aliased SQL (a DECIMAL: text), a scalar subquery, NULL.
const build = (on: Executor) =>
  on
    .select({
      id: memory.id,
      tags: memory.tags,
      scope: memory.scope,
      contextCount: memory.contextCount,
      createdAt: memory.createdAt,
      createdText: sql<string>`${memory.createdAt}`.mapWith((text: string) => `${text}!`),
      score: sql<number>`${memory.contextCount} + 0.5`.as('score'),
      snippet: sql<string | null>`(SELECT \`memory_context\`.\`snippet\` FROM \`memory_context\` WHERE \`memory_context\`.\`org_id\` = \`memory\`.\`org_id\` AND \`memory_context\`.\`memory_id\` = \`memory\`.\`id\` LIMIT 1)`,
      nothing: sql<null>`NULL`,
    })
    .from(memory)
    .where(eq(memory.orgId, sql.placeholder('orgId')))
    .orderBy(memory.id);

describe('prepared selects decoded by position (packages/db/src/prepared.ts)', () => {
  it("answer exactly what drizzle's own execution answers", async () => {
    const bodies = [
      { content: 'Deploy billing on Fridays', tags: ['ops', 'billing'], contexts: [{ snippet: 'retro notes', citation: { url: 'https://example.com/retro', title: 'Retro' } }] },
      { content: 'A memory without tags or contexts' },
    ];
    for (const body of bodies) expect((await user.api.post('/v1/memory', { body })).status).toBe(201);

    const db = server.database.db;
    const prepared = preparedOn(db, 'test:prepared-rows', build);
    // The plain-rows path is the one in use: its execute is not drizzle's own method.
    expect(prepared.execute).not.toBe(Object.getPrototypeOf(prepared).execute);
    const rows = await prepared.execute({ orgId: user.orgId });
    const drizzles = await build(db).prepare().execute({ orgId: user.orgId });
    expect(rows).toEqual(drizzles);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ tags: ['ops', 'billing'], scope: 'user', contextCount: 1, score: '1.5', snippet: 'retro notes', nothing: null });
    expect(rows[0]!.createdAt).toBeInstanceOf(Date);
    expect(rows[0]!.createdText).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}!$/);
    expect(rows[1]).toMatchObject({ tags: [], contextCount: 0, score: '0.5', snippet: null });
    await expect(prepared.execute({})).rejects.toThrow('No value for placeholder "orgId" was provided');
  });
});
