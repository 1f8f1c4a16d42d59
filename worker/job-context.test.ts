import { Writable } from 'node:stream';
import type { JobHelpers } from 'graphile-worker';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Db } from '@/server/db/client';
import { metrics } from '@/server/observability/metrics';
import { setLogDestination } from '@/server/observability/log';
import { createTaskList } from './task-list';

const lines: Record<string, unknown>[] = [];
beforeAll(() =>
  setLogDestination(
    new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    }),
  ),
);
afterAll(() => setLogDestination(undefined));

test('a failing job is logged at warn with its job id, task and document id, and counted by task', async () => {
  const tasks = createTaskList({} as Db);
  const helpers = { job: { id: '77' } } as unknown as JobHelpers;
  // a payload that fails the registry's schema fails before any database work
  await expect(tasks.ksef_send!({ documentId: 'inv_abc', accountId: 'acct_1', mode: 'bogus' }, helpers)).rejects.toThrow();
  const line = lines.find((l) => l.msg === 'job_failed');
  expect(line).toMatchObject({ level: 'warn', jobId: '77', task: 'ksef_send', documentId: 'inv_abc', accountId: 'acct_1' });
  expect(line?.mode).toBeUndefined(); // only a real mode is taken from a payload
  const text = await metrics().registry.getSingleMetricAsString('ksef_relay_job_failures_total');
  expect(text).toContain('ksef_relay_job_failures_total{task="ksef_send"} 1');
});
