import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

type Registers = Registry[];

/** Histogram buckets for request and job durations, in seconds. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** API requests, document transitions, jobs, statements and failures. */
const workMetrics = (registers: Registers) => ({
  httpRequests: new Histogram({
    name: 'ksef_relay_http_request_duration_seconds',
    help: 'API requests by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: SECONDS,
    registers,
  }),
  documentTransitions: new Counter({
    name: 'ksef_relay_document_transitions_total',
    help: 'Document status changes (from, to) made by this process',
    labelNames: ['from', 'to'] as const,
    registers,
  }),
  jobDuration: new Histogram({
    name: 'ksef_relay_job_duration_seconds',
    help: 'Worker jobs by task and outcome (ok, failed)',
    labelNames: ['task', 'outcome'] as const,
    buckets: SECONDS,
    registers,
  }),
  dbQueries: new Counter({
    name: 'ksef_relay_db_queries_total',
    help: "SQL statements this process sent through its drizzle pools (graphile-worker's own are not counted)",
    registers,
  }),
  failures: new Counter({
    name: 'ksef_relay_failures_total',
    help: 'Failures by kind (server/observability/failures.ts) and mode (none: no account behind it), each also logged at warn or error',
    labelNames: ['kind', 'mode'] as const,
    registers,
  }),
  jobFailures: new Counter({ name: 'ksef_relay_job_failures_total', help: 'Worker jobs that threw, by task', labelNames: ['task'] as const, registers }),
});

/** Calls to KSeF and our throttle in front of them. */
const ksefMetrics = (registers: Registers) => ({
  ksefRequests: new Histogram({
    name: 'ksef_relay_ksef_request_duration_seconds',
    help: 'KSeF API calls by endpoint group and outcome (2xx, 4xx, 429, 5xx, network)',
    labelNames: ['group', 'outcome'] as const,
    buckets: SECONDS,
    registers,
  }),
  ksefRateLimited: new Counter({
    name: 'ksef_relay_ksef_429_total',
    help: '429 answers from KSeF by endpoint group',
    labelNames: ['group'] as const,
    registers,
  }),
  ksefWarnings: new Counter({
    name: 'ksef_relay_ksef_warnings_total',
    help: 'Warnings KSeF sent in X-System-Warning (API 2.6.0; the call itself succeeded), by KSeF environment and endpoint group',
    labelNames: ['environment', 'group'] as const,
    registers,
  }),
  ksefThrottleWait: new Histogram({
    name: 'ksef_relay_ksef_throttle_wait_seconds',
    help: 'Time a KSeF call waited for a slot of our own throttle, by endpoint group',
    labelNames: ['group'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5],
    registers,
  }),
  ksefThrottleDeferred: new Counter({
    name: 'ksef_relay_ksef_throttle_deferred_total',
    help: 'KSeF calls put back in the queue because the window frees later than the inline wait',
    labelNames: ['group'] as const,
    registers,
  }),
});

/** Webhook deliveries, PDF renders, and the other outside services. */
const outputMetrics = (registers: Registers) => ({
  webhookDeliveries: new Histogram({
    name: 'ksef_relay_webhook_delivery_duration_seconds',
    help: 'Webhook delivery attempts by outcome (delivered, failed)',
    labelNames: ['outcome'] as const,
    buckets: SECONDS,
    registers,
  }),
  pdfRender: new Histogram({ name: 'ksef_relay_pdf_render_seconds', help: 'PDF render time', buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10], registers }),
  externalErrors: new Counter({
    name: 'ksef_relay_external_errors_total',
    help: 'Failed calls to NBP and SMTP',
    labelNames: ['service'] as const,
    registers,
  }),
});

/** Gauges read from the database at scrape. */
const stateGauges = (registers: Registers) => ({
  documentsByStatus: new Gauge({
    name: 'ksef_relay_documents',
    help: 'Documents by mode and status (read at scrape)',
    labelNames: ['mode', 'status'] as const,
    registers,
  }),
  offlineDocuments: new Gauge({
    name: 'ksef_relay_offline_documents',
    help: 'Documents issued or sent offline and not yet numbered by KSeF, by mode and deadline state (read at scrape)',
    labelNames: ['mode', 'state'] as const,
    registers,
  }),
  attention: new Gauge({
    name: 'ksef_relay_attention_accounts',
    help: "Account modes with a condition on the merchant's attention list (server/attention), by condition and mode (read at scrape)",
    labelNames: ['condition', 'mode'] as const,
    registers,
  }),
  queueDepth: new Gauge({
    name: 'ksef_relay_queue_jobs',
    help: 'Jobs waiting or running by task (read at scrape)',
    labelNames: ['task', 'state'] as const,
    registers,
  }),
});

/**
 * The process's Prometheus metrics. One registry per process, kept on globalThis: Next.js may load this module
 * once per route bundle, and two registries would split the counts.
 */
function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  // registered in this order, which is the order of /metrics
  return { registry, ...workMetrics(registers), ...ksefMetrics(registers), ...outputMetrics(registers), ...stateGauges(registers) };
}

export type Metrics = ReturnType<typeof createMetrics>;

const KEY = Symbol.for('ksef-relay.metrics');

export function metrics(): Metrics {
  const g = globalThis as { [KEY]?: Metrics };
  return (g[KEY] ??= createMetrics());
}

/** Seconds since a `performance.now()` reading. */
export const secondsSince = (started: number): number => (performance.now() - started) / 1000;

/** The route template of a /v1 path: ids (`inv_…`, `we_…`) become `{id}`, so labels stay few. */
export function routeTemplate(pathname: string): string {
  return pathname
    .split('/')
    .map((s) => (/^[a-z]{2,5}_[0-9A-Za-z]+$/.test(s) ? '{id}' : s))
    .join('/');
}
