import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { wooControl, type WooKey } from '@/emulators/woocommerce/control-client';
import { startWooEmulator, type WooEmulator } from '@/emulators/woocommerce/server';
import { resetConfig, ROOT } from '@/server/config';
import { createWebhookEndpoint } from '@/server/webhooks/create-webhook-endpoint';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';

/**
 * DESIGN.md "Processes": the local stack is a developer's machine, so test mode may reach loopback there (the
 * emulated shop, a developer's webhook receiver); production commands refuse it unless the operator opts in, and
 * live mode never reaches it. One setting, ALLOW_PRIVATE_TARGETS, for store URLs and webhook receivers alike.
 */
const t = useTestDatabase();
let woo: WooEmulator;
let key: WooKey;
const dirs: string[] = [];

beforeAll(async () => {
  woo = await startWooEmulator({ port: 0 });
  key = await wooControl(woo.url).createKey();
});
afterAll(async () => {
  await woo?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  process.env.ALLOW_PRIVATE_TARGETS = '1';
  resetConfig();
});

/** A data directory, optionally with the file a running local stack writes (scripts/stack-file.ts). */
function dataDir(stack?: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kr-targets-'));
  dirs.push(dir);
  if (stack) writeFileSync(path.join(dir, 'stack.json'), JSON.stringify(stack));
  return dir;
}

/** `store connect` of the CLI as its own process (spawned: the emulator answers from this process's event loop). */
async function cliConnect(account: string, mode: 'test' | 'live', url: string, env: Record<string, string | undefined>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: t.url(), ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  const args = ['store', 'connect', account, '--mode', mode, '--url', url, '--consumer-key', key.consumer_key, '--consumer-secret', key.consumer_secret];
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), ...args], { cwd: ROOT, env: childEnv });
  let stdout = '';
  proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  const status = await new Promise<number | null>((r) => proc.once('exit', r));
  return { status, out: JSON.parse(stdout) as Record<string, unknown> };
}

describe('a production command (no local stack, no setting)', () => {
  test.each(['http://127.0.0.1', 'http://localhost'])(
    'refuses a test-mode store at %s with url_not_public, naming the setting',
    async (host) => {
      const acct = await createTestAccount(t.db());
      const url = `${host}:${new URL(woo.url).port}`;
      const { status, out } = await cliConnect(acct.accountId, 'test', url, { ALLOW_PRIVATE_TARGETS: undefined, KR_DATA_DIR: dataDir() });
      expect(status).toBe(1);
      expect(out).toMatchObject({ code: 'url_not_public', error: expect.stringContaining('ALLOW_PRIVATE_TARGETS=1') });
    },
    60_000,
  );

  test('connects it when the operator sets ALLOW_PRIVATE_TARGETS=1', async () => {
    const acct = await createTestAccount(t.db());
    const { status, out } = await cliConnect(acct.accountId, 'test', woo.url, { ALLOW_PRIVATE_TARGETS: '1', KR_DATA_DIR: dataDir() });
    expect({ status, out }).toMatchObject({ status: 0, out: { store: expect.stringMatching(/^st_/) } });
  }, 60_000);

  test('refuses a test-mode webhook receiver on loopback, and takes it with the setting', async () => {
    const acct = await createTestAccount(t.db());
    const input = { url: 'http://localhost:4242/hooks', enabled_events: ['*' as const] };
    process.env.ALLOW_PRIVATE_TARGETS = '0';
    resetConfig();
    await expect(createWebhookEndpoint(t.db(), acct.testScope, input)).rejects.toMatchObject({
      code: 'url_not_public',
      param: 'url',
      message: expect.stringContaining('ALLOW_PRIVATE_TARGETS=1'),
    });
    process.env.ALLOW_PRIVATE_TARGETS = '1';
    resetConfig();
    await expect(createWebhookEndpoint(t.db(), acct.testScope, input)).resolves.toMatchObject({ url: input.url });
  });
});

describe('beside the local stack (`npm start`, `npm run dev`)', () => {
  test("the CLI follows the running stack's policy: the emulated shop on loopback connects in test mode", async () => {
    const acct = await createTestAccount(t.db());
    const dir = dataDir({ ALLOW_PRIVATE_TARGETS: '1' });
    const { status, out } = await cliConnect(acct.accountId, 'test', woo.url, { ALLOW_PRIVATE_TARGETS: undefined, KR_DATA_DIR: dir });
    expect({ status, out }).toMatchObject({ status: 0, out: { store: expect.stringMatching(/^st_/) } });
  }, 60_000);

  test('an operator setting still wins over the stack file', async () => {
    const acct = await createTestAccount(t.db());
    const dir = dataDir({ ALLOW_PRIVATE_TARGETS: '1' });
    const { out } = await cliConnect(acct.accountId, 'test', woo.url, { ALLOW_PRIVATE_TARGETS: '0', KR_DATA_DIR: dir });
    expect(out).toMatchObject({ code: 'url_not_public' });
  }, 60_000);

  test('live mode never reaches a private address, whatever the setting', async () => {
    const acct = await createTestAccount(t.db());
    process.env.ALLOW_PRIVATE_TARGETS = '1';
    resetConfig();
    await expect(
      createWebhookEndpoint(t.db(), { accountId: acct.accountId, mode: 'live' }, { url: 'https://localhost:4242/hooks', enabled_events: ['*'] }),
    ).rejects.toMatchObject({
      code: 'url_not_public',
      message: expect.stringContaining('live mode reaches public addresses only'),
    });
    const dir = dataDir({ ALLOW_PRIVATE_TARGETS: '1' });
    const { out } = await cliConnect(acct.accountId, 'live', woo.url.replace('http:', 'https:'), { ALLOW_PRIVATE_TARGETS: '1', KR_DATA_DIR: dir });
    expect(out).toMatchObject({ code: 'url_not_public' });
  }, 60_000);
});
