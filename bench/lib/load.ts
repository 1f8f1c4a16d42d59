import autocannon from 'autocannon';
import type { CpuMeter } from './cpu';

export type LoadSpec = {
  name: string;
  url: string;
  path: string;
  method?: 'GET' | 'POST';
  connections: number;
  seconds: number;
  /** API keys used in turn, one per request, so that the per-key rate limit spreads over all of them. */
  keys?: readonly string[];
  /** The body of the n-th request (n counts from 0 within this run). */
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
};

/** Runs autocannon against one path and condenses its result to the figures the benchmarks report. */
export async function measureLoad(spec: LoadSpec): Promise<LoadFigures> {
  let n = 0;
  const stopMeter = await spec.cpuMeter?.();
  const result = await autocannon({
    url: spec.url + spec.path,
    method: spec.method ?? 'GET',
    connections: spec.connections,
    duration: spec.seconds,
    requests: [
      {
        setupRequest: (req) => {
          const i = n++;
          const headers: Record<string, string> = { ...spec.headers?.(i) };
          const key = spec.keys?.[i % spec.keys.length];
          if (key) headers.authorization = `Bearer ${key}`;
          if (spec.body) {
            headers['content-type'] = 'application/json';
            return { ...req, headers, body: spec.body(i) };
          }
          return { ...req, headers };
        },
      },
    ],
  });
  const cpu = await stopMeter?.();
  const answered = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  const statuses: Record<string, number> = {};
  for (const [status, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[status] = stat.count ?? 0;
  return {
    name: spec.name,
    requests: answered,
    reqPerSec: answered / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xxShare: answered === 0 ? 1 : (answered - result['2xx']) / answered,
    errors: result.errors,
    statuses,
    webCpuMs: cpu && answered ? cpu.webMs / answered : null,
    postgresCpuMs: cpu && answered ? cpu.postgresMs / answered : null,
  };
}
