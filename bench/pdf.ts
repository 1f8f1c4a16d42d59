/**
 * PDF render time and peak memory on fixed sample XMLs: 1, 10 and 1,000 rows, made by the FA(3) builder
 * (rates 23/8/5/0, discounts, shipping). Run: `npx tsx bench/pdf.ts`; BENCH_ROUNDS (default 9) rounds per size
 * after BENCH_WARMUP (default 5) uncounted renders.
 *
 * Ours: one child process per size renders the XML file to PDF (parse, view, layout, PDF bytes) once cold, then
 * once per round on request; its peak memory is the child's process.resourceUsage().maxRSS, so a render that
 * blocks the event loop cannot hide a peak from a sampling timer.
 *
 * Another generator: PDF_PEER_COMMAND names a command run as `<command> <file.xml> <out.pdf>` once per round,
 * right after ours, so both see the same machine load. Its time is the process's wall time, or the number it
 * prints on a line `render_ms=<n>` if it times its own render; its peak RSS comes from /usr/bin/time.
 *
 * Goals (issue 14): one page ≤ 40 ms median warm; 1,000 rows at most 60 % of the peer's time; peak RSS at
 * 1,000 rows below the peer's (325 MiB when no peer is given).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

// The worker runs React in production mode; the development build alone costs ~30 %.
Object.assign(process.env, { NODE_ENV: process.env.NODE_ENV ?? 'production' });

const SIZES = [1, 10, 1000] as const;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
/** Renders after the cold one that are not counted: "warm" means the JIT has seen the code. */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const PEER = process.env.PDF_PEER_COMMAND;
const RSS_GOAL_MIB = 325;

type Reply = { ms: number; cpuMs: number; bytes: number; pages: number } | { maxRssMiB: number };

/** A render server over stdin/stdout: `render` → {ms, cpuMs, bytes}, `exit` → {maxRssMiB}. */
async function child(xmlPath: string) {
  const { documentViewFromXml } = await import('@/server/pdf/document-view');
  const { renderDocumentPdf } = await import('@/server/pdf/render');
  const xml = readFileSync(xmlPath, 'utf8');
  const reply = (r: Reply) => process.stdout.write(`${JSON.stringify(r)}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'exit') {
      reply({ maxRssMiB: process.resourceUsage().maxRSS / 1024 });
      process.exit(0);
    }
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const pdf = await renderDocumentPdf(documentViewFromXml(xml, { ksefNumber: '5265877635-20260602-01000016B2C4-ED', environment: 'test' }));
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    reply({ ms, cpuMs: (c.user + c.system) / 1000, bytes: pdf.length, pages: (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length });
  }
}

function startChild(xmlPath: string) {
  const proc = spawn(process.execPath, [...process.execArgv, path.resolve(import.meta.dirname, 'pdf.ts'), 'child', xmlPath], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: proc.stdout! })[Symbol.asyncIterator]();
  return async (command: 'render' | 'exit'): Promise<Reply> => {
    proc.stdin!.write(`${command}\n`);
    const { value } = await lines.next();
    return JSON.parse(String(value)) as Reply;
  };
}

function runPeer(command: string, xmlPath: string, outPath: string): { ms: number; maxRssMiB: number | null } {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', 'maxrss_kb=%M', 'sh', '-c', `${command} "$1" "$2"`, 'peer', xmlPath, outPath], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const wall = performance.now() - t0;
  if (r.status !== 0) throw new Error(`PDF_PEER_COMMAND failed (${r.status}): ${r.stderr}`);
  const own = /render_ms=([\d.]+)/.exec(r.stdout)?.[1];
  const rss = /maxrss_kb=(\d+)/.exec(r.stderr)?.[1];
  return { ms: own ? Number(own) : wall, maxRssMiB: rss ? Number(rss) / 1024 : null };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const f = (n: number) => n.toFixed(n < 100 ? 1 : 0);

async function main() {
  const { sampleInvoiceXml } = await import('@/test/fixtures/pdf-sample-views');
  const dir = mkdtempSync(path.join(tmpdir(), 'pdf-bench-'));
  console.log(`pdf render, XML file → PDF bytes, ${ROUNDS} warm rounds per size (median [min]), node ${process.version}, NODE_ENV=${process.env.NODE_ENV}`);
  if (PEER) console.log(`peer: PDF_PEER_COMMAND, run once per round after ours`);
  try {
    for (const rows of SIZES) {
      const xmlPath = path.join(dir, `invoice-${rows}.xml`);
      writeFileSync(xmlPath, sampleInvoiceXml(rows));
      const ask = startChild(xmlPath);
      const cold = (await ask('render')) as Extract<Reply, { ms: number }>;
      for (let i = 0; i < WARMUP; i++) await ask('render');
      const ours: number[] = [];
      const cpu: number[] = [];
      const peer: number[] = [];
      let peerRss = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const r = (await ask('render')) as Extract<Reply, { ms: number }>;
        ours.push(r.ms);
        cpu.push(r.cpuMs);
        if (PEER) {
          const p = runPeer(PEER, xmlPath, path.join(dir, `peer-${rows}.pdf`));
          peer.push(p.ms);
          peerRss = Math.max(peerRss, p.maxRssMiB ?? 0);
        }
      }
      const { maxRssMiB } = (await ask('exit')) as Extract<Reply, { maxRssMiB: number }>;
      const verdicts: string[] = [];
      if (rows === 1) verdicts.push(`goal ≤ 40 ms median: ${median(ours) <= 40 ? 'met' : 'MISSED'}`);
      let line =
        `${String(rows).padStart(5)} rows (${cold.pages} p., ${(cold.bytes / 1024).toFixed(0)} KiB): ours ${f(median(ours))} ms [${f(Math.min(...ours))}], ` +
        `cpu ${f(median(cpu))} ms, cold ${f(cold.ms)} ms, peak RSS ${maxRssMiB.toFixed(0)} MiB`;
      if (PEER) {
        const ratio = median(ours) / median(peer);
        line += ` | peer ${f(median(peer))} ms [${f(Math.min(...peer))}], peak RSS ${peerRss.toFixed(0)} MiB | ours/peer ${(100 * ratio).toFixed(0)} %`;
        if (rows === 1000) verdicts.push(`goal ≤ 60 % of peer: ${ratio <= 0.6 ? 'met' : 'MISSED'}`);
      }
      if (rows === 1000) {
        const limit = PEER && peerRss > 0 ? peerRss : RSS_GOAL_MIB;
        verdicts.push(`goal RSS < ${limit.toFixed(0)} MiB: ${maxRssMiB < limit ? 'met' : 'MISSED'}`);
      }
      console.log(verdicts.length ? `${line}  ${verdicts.join(', ')}` : line);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'child') await child(process.argv[3]!);
else await main();
