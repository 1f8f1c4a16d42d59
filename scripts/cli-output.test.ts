import { spawnSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { ROOT } from '@/server/config';

/** The README's form of the CLI: stdout carries the one JSON line and nothing else (npm's banner is silenced by -s). */
test('`npm run -s cli -- …` prints one JSON line on stdout; a usage error exits 2 before any database is opened', () => {
  const out = spawnSync('npm', ['run', '-s', 'cli', '--', 'account', 'frobnicate'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  const lines = out.stdout.split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0]!)).toMatchObject({ error: expect.stringMatching(/^unknown command\nusage:/) });
  expect(out.status).toBe(2);
});
