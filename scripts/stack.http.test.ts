import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { apiClient } from '@/test/api-client';
import { collect, freePort, stopGroup, waitFor } from '@/test/web';
import { ROOT } from '@/server/config';

/**
 * The newcomer's command (`npm start`, built by `npm test` first): embedded PostgreSQL in a data directory of its
 * own, emulators, web and worker; a demo account whose invoice gets accepted; recovery after SIGKILL; Ctrl-C
 * leaves nothing running.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'kr-stack-'));
chmodSync(dataDir, 0o755); // the embedded server runs as the postgres user and must reach its directory
const started: ChildProcess[] = [];
afterAll(async () => {
  for (const p of started) await stopGroup(p, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function ports() {
  return {
    web: await freePort(),
    pg: await freePort(),
    ksef: await freePort(),
    nbp: await freePort(),
    smtp: await freePort(),
    smtpHttp: await freePort(),
    woo: await freePort(),
  };
}

function startStack(p: Awaited<ReturnType<typeof ports>>) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    KR_DATA_DIR: dataDir,
    PORT: String(p.web),
    EMBEDDED_PG_PORT: String(p.pg),
    KSEF_EMULATOR_PORT: String(p.ksef),
    NBP_EMULATOR_PORT: String(p.nbp),
    SMTP_SINK_PORT: String(p.smtp),
    SMTP_SINK_HTTP_PORT: String(p.smtpHttp),
    WOOCOMMERCE_EMULATOR_PORT: String(p.woo),
    STACK_SKIP_BUILD: '1',
  };
  // as a developer runs it: no address policy of the tests' own (the stack sets its own, DESIGN.md "Processes")
  for (const k of ['DATABASE_URL', 'KSEF_TEST_BASE_URL', 'NBP_BASE_URL', 'SMTP_URL', 'APP_SECRET', 'PUBLIC_BASE_URL', 'ALLOW_PRIVATE_TARGETS']) delete env[k];
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/stack.ts'), '--production'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  started.push(proc);
  return { proc, output: collect(proc) };
}

const groupsOf = (): number[] => JSON.parse(readFileSync(path.join(dataDir, 'stack-pids.json'), 'utf8'));
const alive = (pid: number) => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('npm start: demo account, accepted invoice, recovery after SIGKILL, clean Ctrl-C', async () => {
  const p = await ports();
  const first = startStack(p);
  await waitFor(async () => first.output().includes('dashboard: http://localhost'), 90_000, first.output);
  const key = /demo test API key: (sk_test_\S+)/.exec(first.output())?.[1];
  expect(key).toBeDefined();
  const api = apiClient(`http://127.0.0.1:${p.web}`, key);
  await waitFor(async () => (await api.get('/v1/account').catch(() => null))?.status === 200, 30_000, first.output);
  const created = await api.post('/v1/invoices', {
    order: {
      external_id: 'stack-1',
      paid_at: '2026-11-20T10:00:00Z',
      buyer: { nip: '5260250274', name: 'Kupiec', address_line1: 'ul. Długa 5' },
      lines: [{ name: 'Kubek', quantity: 1, unit_price: '10.00', vat_rate: '23' }],
    },
  });
  expect(created.status).toBe(201);
  await waitFor(async () => (await api.get(`/v1/invoices/${created.body.id}`)).body.status === 'accepted', 60_000, first.output);
  const pdfReady = async () => (await api.get(`/v1/invoices/${created.body.id}`)).body.pdf_url !== null;
  await waitFor(pdfReady, 60_000, first.output);

  // the demo store: the README's curl places a paid B2B order in the emulated shop, and its invoice appears
  expect(first.output()).toContain(`curl -X POST http://127.0.0.1:${p.woo}/__control/orders`);
  const shopOrder = (await (
    await fetch(`http://127.0.0.1:${p.woo}/__control/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nip: '3861610227', paid: true }),
    })
  ).json()) as { id: number };
  const shopInvoice = async () => (await api.get(`/v1/invoices?external_id=${shopOrder.id}`)).body.data[0]?.status;
  await waitFor(async () => (await shopInvoice()) === 'accepted', 60_000, first.output);
  // …and its note and meta come back to the order, as the README's second curl shows
  const inShop = async () =>
    (await (await fetch(`http://127.0.0.1:${p.woo}/__control/orders/${shopOrder.id}`)).json()) as { notes: { note: string }[]; meta_data: { key: string }[] };
  await waitFor(async () => (await inShop()).meta_data.some((m) => m.key === '_ksef_number'), 60_000, first.output);
  expect((await inShop()).notes[0]?.note).toMatch(/FV\/\d{4}\/\d{2}\/\d+/);

  // SIGKILL leaves children and PostgreSQL behind; the next start must clean up and come up on the same data
  const orphans = groupsOf();
  process.kill(-first.proc.pid!, 'SIGKILL');
  const second = startStack(p);
  await waitFor(async () => second.output().includes('dashboard: http://localhost'), 90_000, second.output);
  expect(second.output()).not.toContain('demo account created');
  expect(second.output()).toMatch(/demo store st_\w+: emulated WooCommerce/); // reconnected: webhooks re-created in the fresh emulator
  await waitFor(async () => (await api.get(`/v1/invoices/${created.body.id}`).catch(() => null))?.body.status === 'accepted', 30_000, second.output);
  expect(orphans.filter(alive)).toEqual([]);

  // Ctrl-C: every child and the database stop
  const groups = groupsOf();
  process.kill(second.proc.pid!, 'SIGINT');
  await waitFor(async () => second.proc.exitCode !== null, 30_000, second.output);
  expect(second.output()).toContain('[stack] stopped');
  expect(groups.filter(alive)).toEqual([]);
  await expect(fetch(`http://127.0.0.1:${p.web}/docs/errors`)).rejects.toThrow();
}, 300_000);
