import autocannon from 'autocannon';
import type { CpuMeter, CpuUse } from './cpu';

export type LoadSpec = {
  name: string;
  url: string;
  path: string;
  /** The path of the n-th request, when it changes (an id per key); `path` names the route in the report. */
  pathOf?: (n: number) => string;
  method?: 'GET' | 'POST';
  connections: number;
  seconds: number;
  /** API keys used in turn, one per request, so that the per-key rate limit spreads over all of them. */
  keys?: readonly string[];
  /** The body of the n-th request (n counts from 0 over every slice of this spec). */
  body?: (n: number) => string;
  headers?: (n: number) => Record<string, string>;
  /** Charges the CPU of the server side (web process, database backends) to the run. */
  cpuMeter?: CpuMeter;
};

export type LoadFigures = {
  name: string;
  requests: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  /** Share of answers that were not 2xx, 0..1. */
  non2xxShare: number;
  /** Socket errors and time-outs. */
  errors: number;
  statuses: Record<string, number>;
  /** CPU ms per answered request in the web process and in PostgreSQL, when a meter was given. */
  webCpuMs: number | null;
  postgresCpuMs: number | null;
  /** CPU ms per answered request of this process, the load client. */
  clientCpuMs: number;
};

type Slice = { seconds: number; latencies: number[]; statuses: Record<string, number>; errors: number; cpu: CpuUse | undefined; clientMs: number };

/** Runs autocannon once against one path and keeps every answer's status and latency. */
async function runSlice(spec: LoadSpec, seconds: number, counter: { n: number }): Promise<Slice> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const stopMeter = await spec.cpuMeter?.();
  const started = performance.now();
  const clientBefore = process.cpuUsage();
  const options: autocannon.Options = {
    url: spec.url + spec.path,
    method: spec.method ?? 'GET',
    connections: spec.connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (req) => {
          const i = counter.n++;
          const headers: Record<string, string> = { ...spec.headers?.(i) };
          const key = spec.keys?.[i % spec.keys.length];
          if (key) headers.authorization = `Bearer ${key}`;
          const path = spec.pathOf ? { path: spec.pathOf(i) } : {};
          if (!spec.body) return { ...req, ...path, headers };
          headers['content-type'] = 'application/json';
          return { ...req, ...path, headers, body: spec.body(i) };
        },
      },
    ],
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (err, res) => (err ? reject(err) : resolve(res)));
    instance.on('response', (_client, status, _bytes, responseTime) => {
      latencies.push(responseTime);
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
  });
  const elapsed = (performance.now() - started) / 1000;
  const client = process.cpuUsage(clientBefore);
  return { seconds: elapsed, latencies, statuses, errors: result.errors, cpu: await stopMeter?.(), clientMs: (client.user + client.system) / 1000 };
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

function condense(name: string, slices: Slice[]): LoadFigures {
  const latencies = slices.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const s of slices) for (const [k, v] of Object.entries(s.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  const answered = latencies.length;
  const ok = Object.entries(statuses).reduce((sum, [status, count]) => sum + (status.startsWith('2') ? count : 0), 0);
  const metered = slices.every((s) => s.cpu) && answered > 0;
  const cpu = (pick: (c: CpuUse) => number) => (metered ? slices.reduce((sum, s) => sum + pick(s.cpu!), 0) / answered : null);
  return {
    name,
    requests: answered,
    reqPerSec: answered / slices.reduce((sum, s) => sum + s.seconds, 0),
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    non2xxShare: answered === 0 ? 1 : (answered - ok) / answered,
    errors: slices.reduce((sum, s) => sum + s.errors, 0),
    statuses,
    webCpuMs: cpu((c) => c.webMs),
    postgresCpuMs: cpu((c) => c.postgresMs),
    clientCpuMs: answered ? slices.reduce((sum, s) => sum + s.clientMs, 0) / answered : NaN,
  };
}

/** One autocannon run of `spec.seconds`, condensed to the figures the benchmarks report. */
export async function measureLoad(spec: LoadSpec): Promise<LoadFigures> {
  return condense(spec.name, [await runSlice(spec, spec.seconds, { n: 0 })]);
}

/**
 * Runs the specs in turn, in `slices` alternating slices that add up to each spec's `seconds`: on a machine others
 * share, load that comes and goes then falls on every route alike instead of on whichever ran at that moment.
 */
export async function measureInterleaved(specs: LoadSpec[], slices: number): Promise<LoadFigures[]> {
  const runs = specs.map(() => [] as Slice[]);
  const counters = specs.map(() => ({ n: 0 }));
  for (let round = 0; round < slices; round++) {
    for (const [i, spec] of specs.entries()) runs[i]!.push(await runSlice(spec, spec.seconds / slices, counters[i]!));
  }
  return specs.map((spec, i) => condense(spec.name, runs[i]!));
}
