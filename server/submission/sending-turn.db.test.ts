import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { underWorkerLock } from '@/server/jobs/worker-locks';
import { useTestDatabase } from '@/test/db';
import { sendInTurn, TURN_TAKEN_RETRY_MS } from './sending-turn';

const t = useTestDatabase();

const lane = { accountId: 'acct_turn', mode: 'test' as const };
const readJob = async (key = 'send:acct_turn:test') => {
  const [row] = await t
    .db()
    .execute<{ run_at_ms: number; flags: Record<string, boolean> }>(
      sql`select (extract(epoch from run_at) * 1000)::float8 as run_at_ms, flags from graphile_worker._private_jobs where key = ${key}`,
    );
  return row && { ...row };
};

test("a lane run that finds its lane's other run still sending runs again shortly; another lane is not held up; in its turn it runs", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  const step = underWorkerLock(t.db(), 'ksef_send:acct_turn:test', 'worker-other', async () => {
    started();
    await gate;
  });
  await running;
  const now = Date.now() + 60_000;
  await sendInTurn(t.db(), lane, 'worker-me', now);
  // one row, flagged with its lane's key, so fetches skip it while the turn is taken
  expect(await readJob()).toEqual({ run_at_ms: now + TURN_TAKEN_RETRY_MS, flags: { 'ksef_send:acct_turn:test': true } });
  await sendInTurn(t.db(), lane, 'worker-me', now);
  expect((await t.db().execute(sql`select 1 from graphile_worker._private_jobs`)).length).toBe(1);

  // the step itself runs for another lane, and for this one once the turn is free: the lane has no documents, so
  // the run ends without a job
  await t.db().execute(sql`select graphile_worker.remove_job('send:acct_turn:test')`);
  await sendInTurn(t.db(), { ...lane, accountId: 'acct_free' }, 'worker-me', now);
  expect(await readJob('send:acct_free:test')).toBeUndefined();
  release();
  await step;
  await sendInTurn(t.db(), lane, 'worker-me', now);
  expect(await readJob()).toBeUndefined();
});
