import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getAccountMode } from '@/server/accounts/account-settings';
import { resetConfig, ROOT } from '@/server/config';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { useKsefEmulator } from '@/test/pipeline';
import { saveAndCheckKsefCredential } from './check-connection';

/** Issue 16.7: right after saving credentials the account already says whether they work. */
const t = useTestDatabase();
const ksef = useKsefEmulator();

describe('saving KSeF credentials checks them at once', () => {
  test('a working emulator token: ksef_connected is true as soon as the save returns', async () => {
    const acct = await createTestAccount(t.db());
    const { token } = await ksef.control().createCredentials(VALID_SELLER.nip);
    expect(await saveAndCheckKsefCredential(t.db(), acct.testScope, { kind: 'token', token })).toEqual({ connected: true, error: null });
    expect((await getAccountMode(t.db(), acct.testScope)).mode).toMatchObject({ ksefConnected: true, ksefCheckError: null });
  });

  test('a refused token says why at once', async () => {
    const acct = await createTestAccount(t.db());
    const check = await saveAndCheckKsefCredential(t.db(), acct.testScope, { kind: 'token', token: 'not-a-token-the-emulator-issued' });
    expect(check.connected).toBe(false);
    expect(check.error).not.toBe('not checked yet');
    expect((await getAccountMode(t.db(), acct.testScope)).mode.ksefConnected).toBe(false);
  });

  describe('KSeF slower than the save’s time-out', () => {
    let silent: Server;
    beforeAll(async () => {
      silent = createServer(() => {}); // accepts and never answers
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
      process.env.KSEF_TEST_BASE_URL = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v2`;
      process.env.KSEF_CHECK_ON_SAVE_TIMEOUT_MS = '300';
      resetConfig();
    });
    afterAll(() => {
      process.env.KSEF_TEST_BASE_URL = ksef.url();
      delete process.env.KSEF_CHECK_ON_SAVE_TIMEOUT_MS;
      resetConfig();
      silent.closeAllConnections();
      silent.close();
    });

    test('the save returns after the time-out with "not checked yet", and the background ksef_check job is queued', async () => {
      const acct = await createTestAccount(t.db());
      const started = Date.now();
      const check = await saveAndCheckKsefCredential(t.db(), acct.testScope, { kind: 'token', token: 'some-token-value' });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(check).toEqual({ connected: false, error: 'not checked yet' });
      const jobs = await t.db().execute<{ key: string }>(sql`select key from graphile_worker.jobs where task_identifier = 'ksef_check'`);
      expect(jobs.map((j) => j.key)).toContain(`check:${acct.accountId}:test`);
    });
  });
});

describe('`cli account create --ksef-emulator`', () => {
  test('prints ksef_connected true, and the account says so without waiting for a background job', async () => {
    // spawned, not spawnSync: the emulator answers from this test process's event loop
    const proc = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(ROOT, 'scripts/cli.ts'),
        'account',
        'create',
        '--email',
        `cli-${Date.now()}@example.test`,
        '--seller-nip',
        VALID_SELLER.nip,
        '--ksef-emulator',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: t.url(), KSEF_TEST_BASE_URL: ksef.url(), APP_SECRET: process.env.APP_SECRET ?? 'cli-test-app-secret-0123456789' },
      },
    );
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const status = await new Promise<number | null>((r) => proc.once('exit', r));
    const cli = { status, stdout, stderr };
    expect(cli.status, cli.stdout + cli.stderr).toBe(0);
    const out = JSON.parse(cli.stdout) as { account: string; ksef_connected: boolean };
    expect(out.ksef_connected).toBe(true);
    expect((await getAccountMode(t.db(), { accountId: out.account, mode: 'test' })).mode.ksefConnected).toBe(true);
  }, 60_000);
});
