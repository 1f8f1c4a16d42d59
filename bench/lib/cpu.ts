import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux this runs on

/** CPU time (user + system, ms) used so far, per process id. */
export type CpuSnapshot = Map<number, number>;

/**
 * Reads the CPU time of the given processes from /proc. On a shared machine wall-clock figures move with everyone
 * else's load; CPU time per request moves far less, so the benchmarks print both.
 */
export function takeCpuSnapshot(pids: readonly number[]): CpuSnapshot {
  const out: CpuSnapshot = new Map();
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // a process that ended since it was listed
    }
    // Fields after the parenthesised command name (which may contain spaces): utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND);
  }
  return out;
}

/** CPU ms spent between two snapshots; a process first seen in `after` (a backend opened meanwhile) counts whole. */
export function cpuSpentMs(before: CpuSnapshot, after: CpuSnapshot): number {
  let ms = 0;
  for (const [pid, used] of after) ms += used - (before.get(pid) ?? 0);
  return ms;
}

/** PostgreSQL backends connected to a database (the web server's pool and ours). */
export async function listBackendPids(db: Db, database: string): Promise<number[]> {
  const rows = await db.execute<{ pid: number }>(sql`select pid from pg_stat_activity where datname = ${database}`);
  return rows.map((r) => r.pid);
}

export type CpuUse = { webMs: number; postgresMs: number };
/** Starts counting; the returned function stops and tells what was used meanwhile. */
export type CpuMeter = () => Promise<() => Promise<CpuUse>>;

/** The processes of a process group (a child started detached, with whatever it forks: next start's next-server). */
export function groupPids(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pgrp is the 5th field, the 3rd after the parenthesised command name
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid) pids.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}

/** Resident memory of processes together (Linux /proc), in MB. */
export function rssMb(pids: readonly number[]): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // ended meanwhile
    }
  }
  return Math.round(kb / 1024);
}
