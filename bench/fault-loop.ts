/**
 * Runs each worker-fault test (server/jobs/worker-faults.db.test.ts) `runs` times, one run at a time, and prints the
 * pass count per test with the machine's load average around each run: a flaky fault path shows up here, not in
 * one run of the suite. A failed run's output is kept in the temp directory (its path is printed).
 * Run: npm run bench:fault-loop [-- runs=30 only=1]   (only=1..3 runs a single test; 0: all three)
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from '@/server/config';
import { readArgs } from './lib/args';

const args = readArgs({ runs: 10, only: 0 });
const FILE = 'server/jobs/worker-faults.db.test.ts';
/** The tests by a short name and the start of their title, as vitest's -t matches it. */
const TESTS = [
  ['connection kills', 'the server terminates the connections'],
  ['database down at start, then outages', 'a worker started while the database is down'],
  ['SIGTERM mid-flow', 'SIGTERM mid-flow'],
] as const;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join('/');
const chosen = args.only ? [TESTS[args.only - 1]!] : TESTS;
const results = chosen.map(([name]) => ({ name, passed: 0, runs: 0, seconds: [] as number[], failures: [] as string[] }));

for (let run = 1; run <= args.runs; run++) {
  for (const [i, [name, title]] of chosen.entries()) {
    const before = load();
    const started = Date.now();
    const out = spawnSync('npx', ['vitest', 'run', FILE, '-t', title], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    const seconds = Math.round((Date.now() - started) / 1000);
    const r = results[i]!;
    r.runs++;
    r.seconds.push(seconds);
    // vitest exits 0 only when the chosen test ran and passed
    const ok = out.status === 0 && /Tests\s+.*1 passed/.test(out.stdout.replace(/\x1b\[[0-9;]*m/g, ''));
    if (ok) r.passed++;
    else {
      const file = path.join(tmpdir(), `fault-loop-${i + 1}-run${run}-${process.pid}.log`);
      writeFileSync(file, `${out.stdout}\n${out.stderr}`);
      r.failures.push(file);
    }
    console.log(`run ${run} ${name}: ${ok ? 'pass' : 'FAIL'} in ${seconds} s (load ${before} → ${load()})${ok ? '' : `, output in ${r.failures.at(-1)}`}`);
  }
}

console.log('\nfault loop: passed / runs per test');
for (const r of results) {
  const s = [...r.seconds].sort((a, b) => a - b);
  console.log(`  ${r.name}: ${r.passed}/${r.runs} (median ${s[Math.floor(s.length / 2)] ?? 0} s, max ${s.at(-1) ?? 0} s)`);
  for (const f of r.failures) console.log(`    failed run output: ${f}`);
}
process.exitCode = results.every((r) => r.passed === r.runs) ? 0 : 1;
