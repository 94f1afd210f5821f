import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from './support/http';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant, type TestUser } from './support/tenants';

/*
 * Deleting a memory leaves no row that holds its text: not the memory, not its contexts,
 * and not a search statistic of one of its words (a name, a code word) — whichever way it
 * is deleted.
 */
let server: TestServer;
const OPERATOR_TOKEN = 'operator-token-for-the-erasure-tests';

beforeAll(async () => {
  server = await startTestServer({ env: { MEMORY_BANK_OPERATOR_TOKEN: OPERATOR_TOKEN } });
});
afterAll(() => server.close());

let words = 0;
/** A word no other memory of any test holds. */
const codeWord = () => `zephyrine${process.pid}x${words++}`;

/** Rows of any memory table that hold `word`. */
async function rowsHolding(word: string): Promise<string[]> {
  const like = `%${word}%`;
  const found: string[] = [];
  const checks: [string, string][] = [
    ['memory', 'SELECT COUNT(*) AS n FROM memory WHERE content LIKE ? OR search_terms LIKE ?'],
    ['memory_context', 'SELECT COUNT(*) AS n FROM memory_context WHERE snippet LIKE ? OR CAST(citation AS CHAR) LIKE ?'],
    ['memory_term_stats', 'SELECT COUNT(*) AS n FROM memory_term_stats WHERE term LIKE ? OR owner_id LIKE ?'],
  ];
  for (const [table, query] of checks) {
    const [rows] = await server.database.pool.query<mysql.RowDataPacket[]>(query, [like, like]);
    if (Number(rows[0]!.n) > 0) found.push(table);
  }
  return found;
}

async function remember(who: TestUser, word: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await who.api.post('/v1/memory', {
    body: { content: `The ${word} launch code is ${word}Alpha, keep it quiet`, contexts: [{ snippet: `${word} from the call`, citation: { url: `https://chat.example/${word}`, title: word } }], ...extra },
  });
  expectStatus(res, 201);
  expect(await rowsHolding(word)).toEqual(['memory', 'memory_context', 'memory_term_stats']);
  return res.body.id;
}

describe('an erasure leaves no row holding the deleted text', () => {
  let org: TestTenant;
  beforeAll(async () => {
    org = await createTenant(server.services, server.url, 'Erasure');
    // Another memory of the owner, so its statistics live on after each erasure.
    expectStatus(await org.owner.api.post('/v1/memory', { body: { content: 'Deploys happen on Tuesdays' } }), 201);
  });

  it('when the memory is deleted', async () => {
    const word = codeWord();
    const id = await remember(org.owner, word);
    expect((await org.owner.api.delete(`/v1/memory/${id}`)).status).toBe(204);
    expect(await rowsHolding(word)).toEqual([]);
  });

  it('when an org-shared memory is deleted by an admin', async () => {
    const word = codeWord();
    const id = await remember(org.owner, word, { scope: 'org' });
    expect((await org.owner.api.delete(`/v1/memory/${id}`)).status).toBe(204);
    expect(await rowsHolding(word)).toEqual([]);
  });

  it('when its content is changed', async () => {
    const word = codeWord();
    const id = await remember(org.owner, word);
    expectStatus(await org.owner.api.patch(`/v1/memory/${id}`, { body: { content: 'The launch moved to next week' } }), 200);
    // The context stays (contexts are fixed at creation); the content and its statistics are gone.
    expect(await rowsHolding(word)).toEqual(['memory_context']);
  });

  it("when an admin purges a member's memories", async () => {
    const member = await org.addMember();
    const word = codeWord();
    await remember(member, word);
    expect((await org.owner.api.delete(`/v1/admin/members/${member.userId}/memories`)).status).toBe(200);
    expect(await rowsHolding(word)).toEqual([]);
  });

  it('when a member is removed', async () => {
    const member = await org.addMember();
    const word = codeWord();
    await remember(member, word);
    expect((await org.owner.api.delete(`/v1/org/members/${member.userId}`)).status).toBe(200);
    expect(await rowsHolding(word)).toEqual([]);
  });

  it('when the org is deleted', async () => {
    const doomed = await createTenant(server.services, server.url, 'Erasure, deleted org');
    const word = codeWord();
    await remember(doomed.owner, word);
    await remember(doomed.owner, `${word}shared`, { scope: 'org' });
    const res = await fetch(`${server.url}/v1/admin/orgs/${doomed.orgId}`, { method: 'DELETE', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(await rowsHolding(word)).toEqual([]);
  });
});
