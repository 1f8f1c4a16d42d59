import { availableParallelism } from 'node:os';
import type { LoadFigures } from './load';

export type Goal = { minShareOfBare: number; maxP99Ms: number };

/**
 * The req/s the machine could give when CPU is the only limit: the web process is one Node thread, so one core at
 * most, and web, PostgreSQL and the load client together share every core.
 */
function cpuBoundReqPerSec(f: LoadFigures): number | null {
  if (f.webCpuMs === null || f.postgresCpuMs === null) return null;
  return Math.min(1000 / f.webCpuMs, (1000 * availableParallelism()) / (f.webCpuMs + f.postgresCpuMs + f.clientCpuMs));
}

/**
 * One table: each target beside the bare route of the same run, with its ratio and the goal. `CPU-bound
 * ratio` is the ratio of cpuBoundReqPerSec: an estimate of the req/s ratio if nothing but this benchmark ran, which
 * moves far less than req/s with the load of others (though heavy contention inflates CPU per request as well).
 */
export function printComparison(title: string, bare: LoadFigures, targets: LoadFigures[], goal: Goal): boolean {
  const bareCapacity = cpuBoundReqPerSec(bare);
  const rows = [bare, ...targets].map((f) => {
    const ratio = f.reqPerSec / bare.reqPerSec;
    const capacity = cpuBoundReqPerSec(f);
    const met = f === bare ? '' : ratio >= goal.minShareOfBare && f.p99 <= goal.maxP99Ms && f.non2xxShare === 0 && f.errors === 0;
    return {
      route: f.name,
      'req/s': Math.round(f.reqPerSec),
      'p50 ms': f.p50,
      'p99 ms': f.p99,
      'of bare': f === bare ? '100 %' : `${(ratio * 100).toFixed(1)} %`,
      'non-2xx': `${(f.non2xxShare * 100).toFixed(2)} %`,
      errors: f.errors,
      'web CPU ms/req': f.webCpuMs?.toFixed(2) ?? '',
      'pg CPU ms/req': f.postgresCpuMs?.toFixed(2) ?? '',
      'client CPU ms/req': f.clientCpuMs.toFixed(2),
      'CPU-bound ratio': bareCapacity !== null && capacity !== null ? `${((capacity / bareCapacity) * 100).toFixed(1)} %` : '',
      statuses: Object.entries(f.statuses)
        .map(([s, c]) => `${s}×${c}`)
        .join(' '),
      goal: met === '' ? '' : met ? 'met' : 'MISSED',
    };
  });
  console.log(`\n${title} (goal: ≥ ${goal.minShareOfBare * 100} % of bare req/s, p99 ≤ ${goal.maxP99Ms} ms, no non-2xx)`);
  console.table(rows);
  return rows.every((r) => r.goal !== 'MISSED');
}
