import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { configProblems, ROOT } from '@/server/config';

/** Two bad variables: the first as seen in issue 32 (a short METRICS_TOKEN), the second a number that is none. */
const BAD = { METRICS_TOKEN: 'too-short', WORKER_CONCURRENCY: 'lots' };
const LINES = [
  'configuration: WORKER_CONCURRENCY is "lots", not a number. Fix: use a number, or unset it for the default (8).',
  'configuration: METRICS_TOKEN has 9 characters. Fix: use at least 16 characters, or unset it.',
];

const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...BAD, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('every process checks its whole configuration before it starts', () => {
  test.each([
    ['the stack runner (npm start)', ['scripts/stack.ts', '--production']],
    ['the stack runner (npm run dev)', ['scripts/stack.ts']],
    ['the CLI', ['scripts/cli.ts', 'account', 'create', '--email', 'a@example.test']],
    ['the worker', ['worker/main.ts']],
    ['migrate', ['scripts/migrate.ts']],
    // the web process runs this at start (Next.js instrumentation), in dev and in production
    ['the web process', ['-e', "import('./instrumentation.ts').then((m) => m.register())"]],
  ])('%s prints one line per bad variable, no stack trace, and exits 1', (_name, args) => {
    const out = run(args, { NEXT_RUNTIME: 'nodejs' });
    expect(out.stderr.trim().split('\n')).toEqual(LINES);
    // the service processes also log it for the log pipeline (one config_invalid line); the stack and CLI print nothing
    const logged = out.stdout.trim()
      ? out.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { failure?: string; problems?: string[] })
      : [];
    expect(logged.every((line) => line.failure === 'config_invalid' && line.problems?.length === 2)).toBe(true);
    expect(out.status).toBe(1);
  });

  test('a variable a process needs is named when unset (an empty value is an unset one)', () => {
    const out = run(['scripts/migrate.ts'], { ...Object.fromEntries(Object.keys(BAD).map((k) => [k, ''])), DATABASE_URL: '' });
    expect(out.stderr.trim().split('\n')).toEqual(['configuration: DATABASE_URL is not set. Fix: set it; this process cannot run without it.']);
    expect(out.status).toBe(1);
  });
});

describe('configProblems', () => {
  test('a good environment has none', () => expect(configProblems({ PORT: '3000', LOG_LEVEL: 'warn' })).toEqual([]));

  test.each([
    [{ PORT: '0' }, 'PORT is 0. Fix: use a number above 0, or unset it for the default (3000).'],
    [{ PORT: '80.5' }, 'PORT is "80.5", not a whole number. Fix: use a whole number, or unset it for the default (3000).'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL is "verbose". Fix: use one of fatal, error, warn, info, debug, trace, silent, or unset it for the default (info).'],
    [
      { PUBLIC_BASE_URL: 'relay.example.pl' },
      'PUBLIC_BASE_URL is "relay.example.pl", not an absolute URL. Fix: use an absolute URL such as https://relay.example.pl, or unset it.',
    ],
    [{ KSEF_RETRY_SCALE: '2' }, 'KSEF_RETRY_SCALE is 2. Fix: use a number of at most 1, or unset it for the default (1).'],
  ])('%o', (env, line) => expect(configProblems(env)).toEqual([line]));

  test('a secret is described, never echoed', () => {
    const lines = configProblems({ APP_SECRET: 'hunter2', SMTP_URL: 'smtp://u:pw@h', METRICS_TOKEN: 'abc' }).join('\n');
    expect(lines).toContain('APP_SECRET has 7 characters.');
    expect(lines).not.toMatch(/hunter2|abc\b/);
  });
});
