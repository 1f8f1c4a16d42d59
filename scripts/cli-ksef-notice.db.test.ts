import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '@/server/config';
import { useTestDatabase } from '@/test/db';

/** Issue 36: the operator enters the Ministry's outage notices (server/outage/notices.ts). */
const t = useTestDatabase();

async function cli(args: string[]): Promise<{ status: number | null; out: Record<string, unknown> }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), 'ksef-notice', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: t.url(), APP_SECRET: process.env.APP_SECRET ?? 'cli-test-app-secret-0123456789' },
  });
  let stdout = '';
  proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  const status = await new Promise<number | null>((r) => proc.once('exit', r));
  return { status, out: JSON.parse(stdout) as Record<string, unknown> };
}

test('`cli ksef-notice` adds, ends and lists notices; a bad mode, time or end is a usage error', { timeout: 120_000 }, async () => {
  const added = await cli(['add', '--mode', 'failure', '--start', '2026-03-02T10:00:00+01:00', '--note', 'komunikat MF nr 1']);
  expect(added).toEqual({
    status: 0,
    out: { notice: { id: expect.any(Number), mode: 'failure', start: '2026-03-02T09:00:00.000Z', end: null, source: 'operator', note: 'komunikat MF nr 1' } },
  });
  const id = String((added.out.notice as { id: number }).id);
  expect((await cli(['end', id, '--end', '2026-03-03T12:00:00+01:00'])).out).toMatchObject({ notice: { end: '2026-03-03T11:00:00.000Z' } });
  expect((await cli(['list'])).out).toMatchObject({ notices: [{ id: Number(id), mode: 'failure', end: '2026-03-03T11:00:00.000Z' }] });

  expect(await cli(['add', '--mode', 'offline24', '--start', '2026-03-02T10:00:00+01:00'])).toMatchObject({ status: 2 });
  expect(await cli(['add', '--mode', 'failure', '--start', '2026-03-02 10:00'])).toMatchObject({ status: 2 });
  expect(await cli(['end', id, '--end', '2026-03-01T12:00:00+01:00'])).toMatchObject({
    status: 2,
    out: { error: expect.stringMatching(/ends after it starts/) },
  });
  expect(await cli(['end', '999999'])).toMatchObject({ status: 2, out: { error: 'no notice 999999' } });
});
