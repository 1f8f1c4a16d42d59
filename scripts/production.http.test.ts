import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { buildOpenApiDocument } from '@/server/api/openapi';
import { ROOT } from '@/server/config';
import { createDb } from '@/server/db/client';
import { checkReadiness } from '@/server/observability/health';
import { withDatabase } from '@/test/global-setup';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { collect, freePort, startWeb, stopGroup, waitFor, type RunningProcess } from '@/test/web';

/**
 * The production processes as an operator runs them: compiled bundles under dist/ (plain node, no TypeScript
 * loader), migrations as their own command, probes and metrics, and graceful stops.
 */
const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const APP_SECRET = 'app-secret-for-production-tests-0123';
const t = useTestDatabase();
const adminUrl = inject('adminUrl');
const emptyName = `kr_prod_${process.pid}_${Date.now()}`;
const emptyUrl = withDatabase(adminUrl, emptyName);
let web: RunningProcess;

const node = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, args, { cwd: ROOT, env: { ...process.env, APP_SECRET, ...env }, encoding: 'utf8', timeout: 120_000 });

beforeAll(async () => {
  const built = node(['--import', 'tsx', path.join(ROOT, 'scripts/build-server.ts')], {});
  expect(built.status, built.stderr).toBe(0);
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${emptyName}`);
  await admin.end();
  web = await startWeb({ DATABASE_URL: t.url(), METRICS_TOKEN });
}, 180_000);

afterAll(async () => {
  await web?.stop();
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${emptyName} with (force)`);
  await admin.end();
});

describe('migrate, CLI and worker from dist/', () => {
  test('`node dist/migrate.mjs` takes an empty database to ready; the CLI bundle works against it', async () => {
    const db = createDb(emptyUrl, { max: 1 });
    try {
      expect(await checkReadiness(db)).toMatchObject({ ready: false, database: 'ok', migrations: expect.stringMatching(/^behind/) });
      const migrated = node([path.join(ROOT, 'dist/migrate.mjs')], { DATABASE_URL: emptyUrl });
      expect(migrated.status, migrated.stderr + migrated.stdout).toBe(0);
      expect(JSON.parse(migrated.stdout.trim().split('\n').pop()!)).toMatchObject({ level: 'info', msg: 'migrations_applied' });
      expect(await checkReadiness(db)).toEqual({ ready: true, database: 'ok', migrations: 'current' });
    } finally {
      await db.$client.end();
    }
    const cli = node([path.join(ROOT, 'dist/cli.mjs'), 'account', 'create', '--email', `ops-${Date.now()}@example.test`], { DATABASE_URL: emptyUrl });
    expect(cli.status, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ account: expect.stringMatching(/^acct_/), test_key: expect.stringMatching(/^sk_test_/) });
  }, 120_000);

  test('the worker serves /healthz, /readyz and token-protected /metrics on WORKER_HEALTH_PORT, and stops on SIGTERM', async () => {
    const port = await freePort();
    const proc = spawn(process.execPath, [path.join(ROOT, 'dist/worker.mjs')], {
      cwd: ROOT,
      env: { ...process.env, APP_SECRET, DATABASE_URL: t.url(), WORKER_HEALTH_PORT: String(port), METRICS_TOKEN, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const output = collect(proc);
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitFor(async () => (await fetch(`${base}/healthz`).catch(() => null))?.status === 200, 30_000, output);
      expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ ready: true, database: 'ok', migrations: 'current' });
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      const metrics = await (await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      expect(metrics).toContain('ksef_relay_job_duration_seconds');
      expect(metrics).toContain('process_resident_memory_bytes');
      // the probes listen before the job runner has connected: its line comes when it has
      const messages = () =>
        output()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => (JSON.parse(l) as { msg: string }).msg);
      await waitFor(async () => messages().includes('worker: running'), 30_000, output);
      const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
      process.kill(proc.pid!, 'SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      await stopGroup(proc, 'SIGKILL');
    }
  }, 60_000);
});

describe('web probes, metrics and the API reference', () => {
  test('/healthz and /readyz answer without a key and count toward no rate limit', async () => {
    const health = await fetch(`${web.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(health.headers.get('RateLimit-Limit')).toBeNull();
    expect(await (await fetch(`${web.url}/readyz`)).json()).toEqual({ ready: true, database: 'ok', migrations: 'current' });
  });

  test('/metrics needs METRICS_TOKEN and has request, document and queue metrics', async () => {
    const acct = await createTestAccount(t.db());
    const created = await fetch(`${web.url}/v1/invoices`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${acct.testKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ order: paidOrder() }),
    });
    expect(created.status).toBe(201);
    expect((await fetch(`${web.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${web.url}/metrics`, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
    const text = await (await fetch(`${web.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(text).toMatch(/ksef_relay_http_request_duration_seconds_count\{route="\/v1\/invoices",method="POST",status="201"\} 1/);
    expect(text).toMatch(/ksef_relay_documents\{mode="test",status="pending"\} [1-9]/);
    expect(text).toMatch(/ksef_relay_queue_jobs\{task="document_prepare",state="ready"\} [1-9]/);
  });

  test('GET /openapi.json is public and is the document the tests validate against; /docs/api renders it from local files', async () => {
    const res = await fetch(`${web.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(web.url))));
    const page = await fetch(`${web.url}/docs/api`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('/docs/api/assets/redoc.standalone.js');
    expect(html).not.toMatch(/https?:\/\/(?!localhost)[a-z]/i);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const bundle = await fetch(`${web.url}/docs/api/assets/redoc.standalone.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    expect((await fetch(`${web.url}/docs/api/assets/init.js`)).status).toBe(200);
    expect((await fetch(`${web.url}/docs/api/assets/..%2Fpackage.json`)).status).toBe(404);
  });
});

describe('graceful stop of the web process', () => {
  test('SIGTERM lets a request in flight finish, then the process exits', async () => {
    const own = await startWeb({ DATABASE_URL: t.url() });
    const acct = await createTestAccount(t.db());
    const body = JSON.stringify({ order: paidOrder() });
    let sendRest: () => void = () => {};
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body.slice(0, 20)));
        sendRest = () => {
          controller.enqueue(new TextEncoder().encode(body.slice(20)));
          controller.close();
        };
      },
    });
    const answer = fetch(`${own.url}/v1/invoices`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${acct.testKey}`, 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await new Promise((r) => setTimeout(r, 300));
    process.kill(-own.pid, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    sendRest();
    const res = await answer;
    expect(res.status).toBe(201);
    await waitFor(
      async () => {
        try {
          process.kill(own.pid, 0);
          return false;
        } catch {
          return true;
        }
      },
      10_000,
      own.output,
    );
    await own.stop();
  }, 60_000);
});
