/**
 * PDF render time for 1, 50 and 1000 rows, and peak RSS. Goals (issue 7): one page at most 40 ms
 * warm, 1000 rows at most 2 s. Run: `npx tsx bench/pdf.ts`. Prints wall and CPU time per render:
 * on a shared machine the wall time includes waiting for a core.
 */
// The worker runs React in production mode; the development build alone costs ~30% here.
Object.assign(process.env, { NODE_ENV: process.env.NODE_ENV ?? 'production' });
const { renderDocumentPdf } = await import('../server/pdf/render');
const { invoice4817View, manyRowsView } = await import('../server/pdf/sample-views');

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const GOALS_MS: Record<number, number> = { 1: 40, 1000: 2_000 };

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 5);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function measure(rows: number) {
  const view = rows === 1 ? { ...invoice4817View(), rows: invoice4817View().rows.slice(0, 1) } : manyRowsView(rows);
  const cold = performance.now();
  const first = await renderDocumentPdf(view);
  const coldMs = performance.now() - cold;
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await renderDocumentPdf(view);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { rows, bytes: first.length, coldMs, wallMs: median(wall), minWallMs: Math.min(...wall), cpuMs: median(cpu) };
}

const results = [];
for (const rows of [1, 50, 1000]) results.push(await measure(rows));
clearInterval(sampler);

console.log(`pdf render, ${RUNS} warm runs each (median; min wall in brackets), node ${process.version}, NODE_ENV=${process.env.NODE_ENV}`);
for (const r of results) {
  const goal = GOALS_MS[r.rows];
  const verdict = goal === undefined ? '' : r.minWallMs <= goal ? `  goal ≤ ${goal} ms: met` : `  goal ≤ ${goal} ms: MISSED`;
  console.log(
    `${String(r.rows).padStart(5)} rows: wall ${r.wallMs.toFixed(1)} ms [${r.minWallMs.toFixed(1)}], cpu ${r.cpuMs.toFixed(1)} ms, ` +
      `first (cold) ${r.coldMs.toFixed(0)} ms, ${(r.bytes / 1024).toFixed(0)} KiB${verdict}`,
  );
}
console.log(`peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MiB`);

export {};
