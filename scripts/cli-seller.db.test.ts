import { spawn } from 'node:child_process';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { getAccountMode, isSellerConfigured } from '@/server/accounts/account-settings';
import { ROOT } from '@/server/config';
import { accounts } from '@/server/db/schema';
import { useTestDatabase } from '@/test/db';

/** Issue 31: `cli account create` checks seller data by the dashboard's rules (server/accounts/seller-data.ts). */
const t = useTestDatabase();

async function cli(args: string[]): Promise<{ status: number | null; out: Record<string, unknown>; stderr: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: t.url(), APP_SECRET: process.env.APP_SECRET ?? 'cli-test-app-secret-0123456789' },
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const status = await new Promise<number | null>((r) => proc.once('exit', r));
  return { status, out: JSON.parse(stdout) as Record<string, unknown>, stderr };
}

const accountsOf = async (email: string) => t.db().select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email));

describe('`cli account create` seller flags', () => {
  test.each([
    ['a NIP with a wrong check digit (the probe’s)', ['--seller-nip', '7010002137'], '--seller-nip: 7010002137 is not a valid Polish NIP'],
    [
      'a name of blanks and control characters',
      ['--seller-nip', '5260250274', '--seller-name', ' \u0001 ', '--seller-address1', 'ul. Prosta 1'],
      '--seller-name: Name is required',
    ],
    ['an address over 512 characters', ['--seller-name', 'Sklep', '--seller-address1', 'x'.repeat(513)], '--seller-address1: Address line 1 takes at most 512'],
  ])(
    '%s: exit code 2, a message naming the flag, nothing stored',
    async (_, flags, message) => {
      const email = `cli-bad-${Math.random().toString(36).slice(2)}@example.test`;
      const run = await cli(['account', 'create', '--email', email, ...flags, '--ksef-emulator']);
      expect(run.status, run.stderr).toBe(2);
      expect(run.out.error).toContain('invalid seller data, nothing created');
      expect(run.out.error).toContain(message);
      expect(run.out).not.toHaveProperty('ksef_connected');
      expect(await accountsOf(email)).toEqual([]);
    },
    60_000,
  );

  test('valid data is stored as the dashboard stores it (NIP normalised) and completes the seller', async () => {
    const email = `cli-good-${Math.random().toString(36).slice(2)}@example.test`;
    const run = await cli([
      'account',
      'create',
      '--email',
      email,
      '--seller-nip',
      'PL 526-025-02-74',
      '--seller-name',
      'Sklep sp. z o.o.',
      '--seller-address1',
      ' ul. Prosta 1 ',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const { mode } = await getAccountMode(t.db(), { accountId: run.out.account as string, mode: 'test' });
    expect([mode.sellerNip, mode.sellerAddress1, isSellerConfigured(mode)]).toEqual(['5260250274', 'ul. Prosta 1', true]);
  }, 60_000);
});
