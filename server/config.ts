import path from 'node:path';
import { z } from 'zod';

/** Project root: npm scripts, tests and the Next.js server all run from it. */
export const ROOT = process.cwd();

const ZConfig = z.object({
  DATABASE_URL: z.string().optional(),
  PORT: z.coerce.number().int().positive().default(3000),
  PUBLIC_BASE_URL: z.string().url().optional(),
  ERRORS_PAGE_URL: z.string().url().optional(),
  /** Encrypts KSeF credentials and webhook secrets (AES-256-GCM); the dev stack makes one under .data/. */
  APP_SECRET: z.string().min(16).optional(),
  /** The official KSeF XSDs and OpenAPI, read at run time, never copied into the repo. */
  KSEF_SCHEMAS_DIR: z.string().default(path.resolve(ROOT, '../shared/ksef/schemas')),
  KSEF_OPENAPI_PATH: z.string().default(path.resolve(ROOT, '../shared/ksef/openapi/open-api.json')),
  /** Base URL of KSeF per environment; the test one points at the local emulator in dev and tests. */
  KSEF_TEST_BASE_URL: z.string().url().default('https://api-test.ksef.mf.gov.pl/v2'),
  KSEF_DEMO_BASE_URL: z.string().url().default('https://api-demo.ksef.mf.gov.pl/v2'),
  KSEF_PROD_BASE_URL: z.string().url().default('https://api.ksef.mf.gov.pl/v2'),
  NBP_BASE_URL: z.string().url().default('https://api.nbp.pl/api'),
  /**
   * The Ministry's KSeF status service ("Latarnia": GET {url}/status), read by the ksef_check cron (server/outage);
   * empty: not read, the operator's notices alone say when KSeF is out. The dev stack points it at the emulator.
   */
  KSEF_STATUS_URL: z.union([z.string().url(), z.literal('')]).default(''),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('KSeF Relay <faktury@ksef-relay.local>'),
  /** Worker processes: jobs at once, task selection (`pdf_render`, `-pdf_render`), liveness. */
  WORKER_CONCURRENCY: z.coerce.number().int().positive().default(8),
  WORKER_TASKS: z.string().optional(),
  /** An idle worker's look for due jobs (ms); WORKER_WAKE_ON_NEW_JOBS=0 makes it the only way it finds new ones. */
  WORKER_POLL_MS: z.coerce.number().int().positive().default(1_000),
  WORKER_WAKE_ON_NEW_JOBS: z.enum(['0', '1']).default('1'),
  /** 1: graphile-worker's connections plan without sequential scans or JIT (`options`; server/jobs/graphile-connection.ts). */
  WORKER_PLANNER_OPTIONS: z.enum(['0', '1']).default('1'),
  WORKER_HEARTBEAT_MS: z.coerce.number().int().positive().default(3_000),
  WORKER_DEAD_AFTER_SECONDS: z.coerce.number().positive().default(15),
  WORKER_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(25_000),
  /** KSeF sending: request time-out, batch threshold and size, longest in-job wait for a rate-limit slot. */
  KSEF_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  KSEF_BATCH_THRESHOLD: z.coerce.number().int().nonnegative().default(10),
  KSEF_BATCH_MAX: z.coerce.number().int().positive().default(10_000),
  KSEF_THROTTLE_INLINE_WAIT_MS: z.coerce.number().int().nonnegative().default(3_000),
  /** Shrink retry schedules for tests and benchmarks (0.01: a minute becomes 0.6 s); 1 in production. */
  KSEF_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
  WEBHOOK_RETRY_TIME_SCALE: z.coerce.number().positive().max(1).default(1),
  /** Test mode may reach private, loopback and link-local addresses (webhooks, stores); never live mode. The local stack sets 1. */
  ALLOW_PRIVATE_TARGETS: z.enum(['0', '1']).default('0'),
  /** Local state of the dev stack (embedded database, app secret, demo account) and the embedded database's port. */
  KR_DATA_DIR: z.string().default(path.join(ROOT, '.data')),
  EMBEDDED_PG_PORT: z.coerce.number().int().positive().default(54329),
  /** Ports of the local emulators the dev stack starts when the matching URL is unset. */
  KSEF_EMULATOR_PORT: z.coerce.number().int().positive().default(8181),
  NBP_EMULATOR_PORT: z.coerce.number().int().positive().default(8182),
  SMTP_SINK_PORT: z.coerce.number().int().positive().default(1025),
  SMTP_SINK_HTTP_PORT: z.coerce.number().int().positive().default(8025),
  /** Old-generation growth past the live heap after a full collection, % (server/observability/heap-growth.ts). */
  HEAP_GROWING_PERCENT: z.coerce.number().int().nonnegative().default(100),
  /** pino level of web and worker logs (fatal, error, warn, info, debug, trace, silent). */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Bearer token for GET /metrics (web) and the worker's /metrics; unset: /metrics answers 404. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** A worker process serves /healthz, /readyz and /metrics on this port (0 or unset: none). */
  WORKER_HEALTH_PORT: z.coerce.number().int().nonnegative().default(0),
  /** Saving KSeF credentials checks them inline this long; a slower KSeF is left to the background ksef_check. */
  KSEF_CHECK_ON_SAVE_TIMEOUT_MS: z.coerce.number().int().nonnegative().default(5_000),
  WOOCOMMERCE_EMULATOR_PORT: z.coerce.number().int().positive().default(8183),
  /** Store REST calls (connect, refunds, reconciliation, write-back): time-out per request. */
  STORE_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  /** PEM of an extra CA trusted for store HTTPS requests: only for tests against the emulator's self-signed certificate. */
  STORE_TLS_CA_FILE: z.string().optional(),
  /** The dev stack reuses the last `next build` (tests that start it several times). */
  STACK_SKIP_BUILD: z.enum(['0', '1']).default('0'),
});

/** Every variable the service reads; README's configuration table lists exactly these (a test compares). */
export const CONFIG_KEYS = Object.keys(ZConfig.shape) as ConfigKey[];
export type ConfigKey = keyof typeof ZConfig.shape;

export type Config = z.infer<typeof ZConfig> & { PUBLIC_BASE_URL: string; ERRORS_PAGE_URL: string };

/** `NAME=` with nothing after it means unset, as in most .env conventions (else '' would coerce to 0 or fail). */
const setValues = (env: Record<string, string | undefined>) => Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));

/** Values never echoed back in a problem line (they are credentials or hold them). */
const SECRET: ReadonlySet<string> = new Set<ConfigKey>(['APP_SECRET', 'METRICS_TOKEN', 'DATABASE_URL', 'SMTP_URL']);

/** What is wrong with a value and what a good one looks like, in words, from zod's issue about it. */
function describeIssue(issue: z.core.$ZodIssue, value: string): { problem: string; fix: string } {
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string'
        ? { problem: `has ${value.length} character${value.length === 1 ? '' : 's'}`, fix: `use at least ${issue.minimum} characters` }
        : { problem: `is ${value}`, fix: `use a number ${issue.inclusive ? 'of at least' : 'above'} ${issue.minimum}` };
    case 'too_big':
      return { problem: `is ${value}`, fix: `use a number ${issue.inclusive ? 'of at most' : 'below'} ${issue.maximum}` };
    case 'invalid_type':
      return {
        problem: `is "${value}", not a ${issue.expected === 'int' ? 'whole number' : issue.expected}`,
        fix: `use a ${issue.expected === 'int' ? 'whole number' : issue.expected}`,
      };
    case 'invalid_value':
      return { problem: `is "${value}"`, fix: `use one of ${issue.values.map(String).join(', ')}` };
    case 'invalid_format':
      return issue.format === 'url'
        ? { problem: `is "${value}", not an absolute URL`, fix: 'use an absolute URL such as https://relay.example.pl' }
        : { problem: `is not in ${issue.format} format`, fix: `use the ${issue.format} format` };
    default:
      return { problem: `is "${value}": ${issue.message}`, fix: 'correct the value' };
  }
}

/** The other fix: unset a variable that has a default or may be left out. */
function unsetHint(key: ConfigKey): string {
  const schema = ZConfig.shape[key];
  if (schema instanceof z.ZodDefault) return `, or unset it for the default (${String(schema.def.defaultValue)})`;
  return schema.safeParse(undefined).success ? ', or unset it' : '';
}

/**
 * One line per bad variable of `env` (its name, the value's problem, how to fix it), and per variable a process needs
 * that is unset; empty when the configuration is whole. Secrets are described, never echoed.
 */
export function configProblems(env: Record<string, string | undefined>, required: readonly ConfigKey[] = []): string[] {
  const result = ZConfig.safeParse(setValues(env));
  const problems = new Map<string, string>();
  for (const key of required) if (!env[key]) problems.set(key, `${key} is not set. Fix: set it; this process cannot run without it.`);
  for (const issue of result.success ? [] : result.error.issues) {
    const key = String(issue.path[0]) as ConfigKey;
    if (problems.has(key)) continue;
    const raw = env[key] ?? '';
    const { problem, fix } = describeIssue(issue, raw);
    const shown = SECRET.has(key) && issue.code !== 'too_small' ? 'is not valid' : problem; // a length tells nothing
    problems.set(key, `${key} ${shown}. Fix: ${fix}${unsetHint(key)}.`);
  }
  return [...problems.values()];
}

/**
 * The first step of every process (web, worker, migrate, CLI, stack runner): a bad configuration ends it with one
 * line per bad variable on stderr and exit code 1, before anything starts.
 */
export function checkConfigAtStart(required: readonly ConfigKey[] = []): void {
  const problems = configProblems(process.env, required);
  if (problems.length === 0) return;
  printConfigProblems(problems);
  process.exit(1);
}

/** One line per bad variable on stderr, for the person starting the process. */
export function printConfigProblems(problems: readonly string[]): void {
  process.stderr.write(problems.map((line) => `configuration: ${line}\n`).join(''));
}

let cached: Config | undefined;

/** Environment parsed once (t3 style); call sites read `config()` rather than process.env. */
export function config(): Config {
  if (cached) return cached;
  const result = ZConfig.safeParse(setValues(process.env));
  // entry points check first (checkConfigAtStart); this only fires for code run without one, such as a test
  if (!result.success) throw new Error(`bad configuration:\n${configProblems(process.env).join('\n')}`);
  const parsed = result.data;
  const publicBase = (parsed.PUBLIC_BASE_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/$/, '');
  cached = { ...parsed, PUBLIC_BASE_URL: publicBase, ERRORS_PAGE_URL: parsed.ERRORS_PAGE_URL ?? `${publicBase}/docs/errors` };
  return cached;
}

/** LOG_LEVEL alone: the logger must work (at info) even when the rest of the environment is wrong, to say so. */
export const logLevel = (env: NodeJS.ProcessEnv = process.env): Config['LOG_LEVEL'] => ZConfig.shape.LOG_LEVEL.catch('info').parse(env.LOG_LEVEL);

/** Tests change the environment between files; they reset the parsed copy. */
export function resetConfig(): void {
  cached = undefined;
}
