import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { underWorkerLock } from '@/server/jobs/worker-locks';
import { useTestDatabase } from '@/test/db';
import { busyRetryMs, sendInTurn } from './sending-turn';

const t = useTestDatabase();

const job = { documentId: 'inv_turn', accountId: 'acct_turn', mode: 'test' as const, busy: 0 };
const readJob = async () => {
  const [row] = await t
    .db()
    .execute<{ busy: number; run_at_ms: number; flags: Record<string, boolean> }>(
      sql`select (payload->>'busy')::int as busy, (extract(epoch from run_at) * 1000)::float8 as run_at_ms, flags from graphile_worker._private_jobs where key = 'send:inv_turn'`,
    );
  return row && { ...row };
};

test("a send job that finds its seller's turn taken runs again later, backing off; another seller's is not held up; in its turn it sends", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  const step = underWorkerLock(t.db(), 'ksef_send:acct_turn:test', 'worker-other', async () => {
    started();
    await gate;
  });
  await running;
  const now = Date.parse('2026-11-24T10:00:00.000Z');
  await sendInTurn(t.db(), job, 'worker-me', now);
  // still flagged with its seller's key, so fetches skip it while the turn is taken
  expect(await readJob()).toEqual({ busy: 1, run_at_ms: now + 250, flags: { 'ksef_send:acct_turn:test': true } });
  await sendInTurn(t.db(), { ...job, busy: 3 }, 'worker-me', now);
  expect(await readJob()).toMatchObject({ busy: 4, run_at_ms: now + 2_000 });
  expect(busyRetryMs(10)).toBe(8_000);

  // the step itself runs for another seller, and for this one once the turn is free: the document does not
  // exist, so the step ends without a job
  await t.db().execute(sql`select graphile_worker.remove_job('send:inv_turn')`);
  await sendInTurn(t.db(), { ...job, accountId: 'acct_free' }, 'worker-me', now);
  expect(await readJob()).toBeUndefined();
  release();
  await step;
  await sendInTurn(t.db(), job, 'worker-me', now);
  expect(await readJob()).toBeUndefined();
});
