import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { randomNip } from '@/emulators/ksef/testing';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { useKsefEmulator, useWorkerProcesses } from '@/test/pipeline';
import { stopGroup, waitFor } from '@/test/web';
import { createBurst, findLimitBreaches } from '@/test/fixtures/burst';

/**
 * The 2,000-order burst with the real worker process SIGKILLed twice mid-batch: once while a batch's parts are
 * being uploaded (its session open on KSeF, documents recorded as sending), once after a close while KSeF
 * processes. Production limits on the emulator; PDF and mail tasks left out (not measured here).
 */
const t = useTestDatabase();
const ksef = useKsefEmulator({ limits: 'prod' });
const workers = useWorkerProcesses(t.url, ksef.url, {
  WORKER_CONCURRENCY: '4',
  WORKER_TASKS: '-pdf_render,-mail_send,-webhook_deliver',
  KSEF_TIMEOUT_MS: '10000',
});
const startWorker = workers.start;

const batchesIn = async (status: string) =>
  (await t.db().execute<{ n: number }>(sql`select count(*)::int as n from ksef_batches where status = ${status}`))[0]!.n;

test('SIGKILL mid-upload and mid-processing of batches: 2,000 accepted exactly once, gapless, no 429', async () => {
  const nip = randomNip();
  const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
  await ksef.connect(t.db(), acct.testScope, nip);
  const ids = await createBurst(t.db(), acct.testScope, 2_000);
  // the first part upload hangs for 5 s, and KSeF takes 3 s per invoice batch: both moments are wide enough to hit
  await ksef.control().setFaults([{ endpoint: 'uploadBatchPart', kind: 'latency', latencyMs: 5_000, times: 1 }]);
  await ksef.control().setProcessingDelay(3_000);

  const first = startWorker();
  await waitFor(async () => (await batchesIn('opened')) > 0, 60_000, first.output);
  await stopGroup(first.proc, 'SIGKILL');

  const second = startWorker();
  await waitFor(async () => (await batchesIn('closed')) > 0, 60_000, second.output);
  await stopGroup(second.proc, 'SIGKILL');
  await ksef.control().setProcessingDelay(0);

  const third = startWorker();
  let summary = '';
  await waitFor(
    async () => {
      const rows = await t.db().execute<{ status: string; n: number }>(sql`select status, count(*)::int as n from documents where id in ${ids} group by 1`);
      summary = JSON.stringify(rows);
      return rows.length === 1 && rows[0]!.status === 'accepted';
    },
    240_000,
    () => `${summary}\n${third.output().slice(-3000)}`,
  );

  const rows = await t.db().execute<{ number: string; xml_sha256: string }>(sql`select number, xml_sha256 from documents where id in ${ids}`);
  expect(rows.map((r) => Number(r.number.split('/')[3])).sort((a, b) => a - b)).toEqual(Array.from({ length: 2_000 }, (_, i) => i + 1));
  const counters = await ksef.control().counters();
  expect(rows.filter((r) => counters.invoices.byHash[r.xml_sha256] !== 1)).toEqual([]);
  expect(counters.rateLimited).toBe(0);
  expect(await findLimitBreaches(t.db())).toEqual([]);
  // the upload that was killed: KSeF's session stayed open (100), so it was abandoned and its documents resent
  expect(await batchesIn('abandoned')).toBeGreaterThanOrEqual(1);
  expect(workers.outputs().some((o) => o.includes('released jobs of dead workers'))).toBe(true);
}, 400_000);
