import { readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc CPU times are in these ticks. */
const TICKS_PER_SECOND = 100;

/** User + system CPU of a process so far, in ms (null when it cannot be read). */
export function cpuMs(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces): state is 3rd, utime 14th, stime 15th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** The database server's processes on this machine (none when it runs elsewhere). */
export function databasePids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (/^(mariadbd|mysqld)$/.test(readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) pids.push(Number(entry));
    } catch {
      // gone already
    }
  }
  return pids;
}

/**
 * CPU time (ms) spent while some work ran, summed over every time it ran: by the process
 * that served it (the service, or the bare HTTP server), by the database server, and by
 * this process (the load generator, the raw driver's side and the archive's s3rver).
 * null where a process could not be read (or none serves: the raw driver's side).
 */
export interface CpuSpent {
  serving: number | null;
  database: number | null;
  here: number;
}

export const noCpuSpent = (serving: boolean): CpuSpent => ({ serving: serving ? 0 : null, database: 0, here: 0 });

function totalOf(pids: readonly number[]): number | null {
  let total = 0;
  for (const pid of pids) {
    const ms = cpuMs(pid);
    if (ms === null) return null;
    total += ms;
  }
  return total;
}

const added = (into: number | null, start: number | null, end: number | null) => (into === null || start === null || end === null ? null : into + end - start);

/** Runs `work`, adding the CPU it cost `servingPid` (if any), the `database` processes (if any found) and this process into `into`. */
export async function withCpu<T>(into: CpuSpent, servingPid: number | null, database: readonly number[], work: () => Promise<T>): Promise<T> {
  const before = { serving: servingPid === null ? null : cpuMs(servingPid), database: database.length > 0 ? totalOf(database) : null, here: process.cpuUsage() };
  const result = await work();
  const here = process.cpuUsage(before.here);
  into.serving = servingPid === null ? null : added(into.serving, before.serving, cpuMs(servingPid));
  into.database = database.length > 0 ? added(into.database, before.database, totalOf(database)) : null;
  into.here += (here.user + here.system) / 1000;
  return result;
}

/** ms per operation, or null when not measured. */
export const perOperation = (ms: number | null, operations: number) => (ms === null || operations === 0 ? null : ms / operations);
