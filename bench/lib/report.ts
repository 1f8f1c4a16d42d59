import type { LoadFigures } from './load';

export type Goal = { minShareOfBare: number; maxP99Ms: number };

/** One table: each target beside the bare route of the same run, with its ratio and the goal. */
export function printComparison(title: string, bare: LoadFigures, targets: LoadFigures[], goal: Goal): boolean {
  const rows = [bare, ...targets].map((f) => {
    const ratio = f.reqPerSec / bare.reqPerSec;
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
