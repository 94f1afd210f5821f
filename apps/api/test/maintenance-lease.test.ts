import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from './support/http';
import { movableClock, rowsOf } from './support/lifecycle';
import { startTestServer, type TestServer } from './support/server';
import { createTenant, type TestTenant } from './support/tenants';

/*
 * Two API processes (two apps over one database) run the maintenance jobs one at a time:
 * a run takes the lease of maintenance_leases, renews it while it works and gives it up
 * when done; a lease left by a holder that died is taken over once it ends.
 */
const LEASE_MS = 600;
const clock = movableClock();
let a: TestServer;
let b: TestServer;
let org: TestTenant;

beforeAll(async () => {
  a = await startTestServer({ ownDatabase: true, clock, maintenanceOptions: { leaseMs: LEASE_MS } });
  b = await startTestServer({ databaseUrl: a.config.DATABASE_URL, clock, maintenanceOptions: { leaseMs: LEASE_MS } });
  org = await createTenant(a.services, a.url, 'Lease org');
});
afterAll(async () => {
  await b.close();
  await a.close();
});

interface LeaseRow {
  holder: string;
  leased_until: Date;
}
async function leaseRow(): Promise<LeaseRow | undefined> {
  const [rows] = await a.database.pool.query<mysql.RowDataPacket[]>("SELECT holder, leased_until FROM maintenance_leases WHERE job = 'maintenance'");
  return rows[0] as LeaseRow | undefined;
}

let plans = 0;
/** An expired memory of the org: due work for the next run. */
async function expiredMemory(): Promise<string> {
  const res = await org.owner.api.post('/v1/memory', { body: { content: `A plan that ran out (${plans++})`, ttl_seconds: 1 } });
  expectStatus(res, 201);
  clock.advance(1001);
  return res.body.id;
}

/**
 * Holds the owner's statistics totals row in a transaction of the test's own, so a run that
 * deletes one of the owner's memories waits there, holding the lease, until `release()`.
 */
async function holdOwnerStatistics(): Promise<{ release(): Promise<void> }> {
  const connection = await a.database.pool.getConnection();
  await connection.query('START TRANSACTION');
  await connection.query("SELECT docs FROM memory_term_stats WHERE org_id = ? AND owner_id = ? AND term = '' FOR UPDATE", [org.orgId, org.owner.userId]);
  return {
    async release() {
      await connection.query('COMMIT');
      connection.release();
    },
  };
}

describe('the maintenance lease', () => {
  it('lets one process run at a time: the other skips while the holder works and renews, and runs once it is done', async () => {
    const id = await expiredMemory();
    const hold = await holdOwnerStatistics();
    let running: ReturnType<TestServer['maintenance']['tryRun']> | undefined;
    try {
      running = a.maintenance.tryRun();
      await expect.poll(async () => (await leaseRow())?.holder, { timeout: 5000, interval: 20 }).toBe(a.maintenance.holder);
      const taken = (await leaseRow())!.leased_until.getTime();
      expect(await b.maintenance.tryRun()).toBeNull();
      // Renewed after the first lease would have ended (so that end has passed): the other still skips.
      await expect.poll(async () => (await leaseRow())?.leased_until.getTime(), { timeout: 5000, interval: 20 }).toBeGreaterThan(taken + LEASE_MS);
      expect(await leaseRow()).toMatchObject({ holder: a.maintenance.holder });
      expect(await b.maintenance.tryRun()).toBeNull();
      expect(await rowsOf(a, 'memory', 'id = ?', [id])).toBe(1);
    } finally {
      await hold.release();
    }
    const report = await running!;
    expect(report?.removed.memory_expiry).toEqual({ memories: 1 });
    expect(await rowsOf(a, 'memory', 'id = ?', [id])).toBe(0);
    // Given up when done: the other process runs at once.
    expect(await leaseRow()).toBeUndefined();
    expect(await b.maintenance.tryRun()).not.toBeNull();
    expect(await leaseRow()).toBeUndefined();
  });

  it('runOnce waits for the holder to finish, then runs', async () => {
    await expiredMemory();
    const hold = await holdOwnerStatistics();
    const order: string[] = [];
    const first = a.maintenance.tryRun().then((report) => order.push(`a:${report?.removed.memory_expiry?.memories ?? 0}`));
    await expect.poll(async () => (await leaseRow())?.holder, { timeout: 5000, interval: 20 }).toBe(a.maintenance.holder);
    const second = b.maintenance.runOnce().then((removed) => order.push(`b:${removed}`));
    await hold.release();
    await Promise.all([first, second]);
    expect(order).toEqual(['a:1', 'b:0']);
  });

  it('takes over the lease of a holder that died once its time is over', async () => {
    const id = await expiredMemory();
    const leasedUntil = new Date(clock.now().getTime() + 30_000);
    await a.database.pool.query("INSERT INTO maintenance_leases (job, holder, leased_until) VALUES ('maintenance', 'a-host/4242/dead', ?)", [leasedUntil]);
    expect(await b.maintenance.tryRun()).toBeNull();
    expect(await a.maintenance.tryRun()).toBeNull();
    expect(await rowsOf(a, 'memory', 'id = ?', [id])).toBe(1);

    clock.advance(30_001);
    const report = await b.maintenance.tryRun();
    expect(report?.removed.memory_expiry).toEqual({ memories: 1 });
    expect(await rowsOf(a, 'memory', 'id = ?', [id])).toBe(0);
    expect(await leaseRow()).toBeUndefined();
  });

  it('gives every process its own holder id', () => {
    expect(a.maintenance.holder).not.toBe(b.maintenance.holder);
    expect(a.maintenance.holder).toMatch(new RegExp(`/${process.pid}/[0-9a-f]{8}$`));
  });
});
