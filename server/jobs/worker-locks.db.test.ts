import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDb, type Db } from '@/server/db/client';
import { useTestDatabase } from '@/test/db';
import { waitFor } from '@/test/web';
import { beat, releaseDeadWorkers, unlockWorkers } from './heartbeat';
import { enqueue } from './enqueue';
import { hasJobLock, TASK_NAMES } from './registry';
import { busyLockFlags, releaseLeakedWorkerLocks, underWorkerLock } from './worker-locks';

const t = useTestDatabase();
/** A second pool: another worker process. */
let other: Db;
beforeAll(() => {
  other = createDb(t.url(), { max: 2 });
});
afterAll(() => other.$client.end());

/** A step that runs until released. */
function heldStep(db: Db, key: string, holder: string) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  const done = underWorkerLock(db, key, holder, async () => {
    started();
    await gate;
    return 'sent';
  });
  return { done, running, release };
}

const holders = async () =>
  (await t.db().execute<{ key: string; holder: string }>(sql`select key, holder from worker_locks order by key`)).map((r) => ({ ...r }));

test('one holder of a key at a time, across processes and within one; other keys run beside it; free after the step, also after a failed one', async () => {
  const held = heldStep(t.db(), 'ksef_send:acct_1:test', 'worker-a');
  await held.running;
  let ran = 0;
  const step = async () => ++ran;
  expect(await underWorkerLock(other, 'ksef_send:acct_1:test', 'worker-b', step)).toEqual({ ran: false });
  expect(await underWorkerLock(t.db(), 'ksef_send:acct_1:test', 'worker-a', step)).toEqual({ ran: false });
  expect(ran).toBe(0);
  expect(await underWorkerLock(other, 'ksef_send:acct_2:test', 'worker-b', step)).toEqual({ ran: true, value: 1 });
  expect(await underWorkerLock(other, 'ksef_send:acct_1:live', 'worker-b', step)).toEqual({ ran: true, value: 2 });
  expect(await holders()).toEqual([{ key: 'ksef_send:acct_1:test', holder: 'worker-a' }]);

  held.release();
  expect(await held.done).toEqual({ ran: true, value: 'sent' });
  expect(await underWorkerLock(other, 'ksef_send:acct_1:test', 'worker-b', step)).toEqual({ ran: true, value: 3 });
  await expect(
    underWorkerLock(t.db(), 'ksef_send:acct_1:test', 'worker-a', async () => {
      throw new Error('KSeF said no');
    }),
  ).rejects.toThrow('KSeF said no');
  expect(await underWorkerLock(other, 'ksef_send:acct_1:test', 'worker-b', step)).toEqual({ ran: true, value: 4 });
  expect(await holders()).toEqual([]);
});

test("a dead worker's keys go with its jobs: by its stopped heartbeat, or held under an id no heartbeat names", async () => {
  await beat(t.db(), 'process-dead', ['worker-dead']);
  await beat(t.db(), 'process-live', ['worker-live']);
  await t.db().execute(sql`update worker_heartbeats set last_seen = now() - interval '1 hour' where worker_id = 'process-dead'`);
  await t.db().execute(sql`insert into worker_locks (key, holder, taken_at) values
    ('k-dead', 'worker-dead', now()), ('k-live', 'worker-live', now() - interval '1 hour'),
    ('k-orphan', 'worker-gone', now() - interval '1 hour'), ('k-fresh', 'worker-new', now())`);
  const released = await releaseDeadWorkers(t.db());
  expect(released.sort()).toEqual(['worker-dead', 'worker-gone']);
  // a holder not yet in any heartbeat (a runner just started) keeps its key until the dead-after time
  expect((await holders()).map((h) => h.key)).toEqual(['k-fresh', 'k-live']);
  // a replaced runner's ids are released by its own process once nothing runs under them
  await unlockWorkers(t.db(), ['worker-new']);
  expect((await holders()).map((h) => h.key)).toEqual(['k-live']);
  await t.db().execute(sql`delete from worker_locks`);
});

test('a key left under a live id of this process that no step here holds (its release failed) is released by the heartbeat', async () => {
  const held = heldStep(t.db(), 'k-held', 'worker-me');
  await held.running;
  await t.db().execute(sql`update worker_locks set taken_at = now() - interval '1 minute'`);
  await t.db().execute(sql`insert into worker_locks (key, holder, taken_at) values
    ('k-leaked', 'worker-me', now() - interval '1 minute'), ('k-just-taken', 'worker-me', now()),
    ('k-other-process', 'worker-them', now() - interval '1 minute')`);
  await releaseLeakedWorkerLocks(t.db(), ['worker-me']);
  expect((await holders()).map((h) => h.key)).toEqual(['k-held', 'k-just-taken', 'k-other-process']);
  held.release();
  await held.done;
  await t.db().execute(sql`delete from worker_locks`);
});

test("fetches skip the jobs of a held key: a lane's send job carries its lane's key as a flag, and the busy list names this process's keys at once and others' shortly after", async () => {
  await enqueue(t.db(), 'ksef_send', { accountId: 'acct_flag', mode: 'live' });
  const [job] = await t
    .db()
    .execute<{ flags: Record<string, boolean> }>(sql`select flags from graphile_worker._private_jobs where key = 'send:acct_flag:live'`);
  expect(job!.flags).toEqual({ 'ksef_send:acct_flag:live': true });
  // only processes running such tasks pass the busy list (worker-runtime.ts)
  expect(TASK_NAMES.filter(hasJobLock)).toEqual(['ksef_send']);

  const busy = busyLockFlags(t.db());
  expect(busy()).toEqual([]);
  const mine = heldStep(t.db(), 'ksef_send:acct_flag:live', 'worker-me');
  await mine.running;
  expect(busy()).toEqual(['ksef_send:acct_flag:live']);
  const theirs = heldStep(other, 'ksef_send:acct_theirs:test', 'worker-them');
  await theirs.running;
  await waitFor(async () => busy().includes('ksef_send:acct_theirs:test'), 5_000);
  mine.release();
  theirs.release();
  await Promise.all([mine.done, theirs.done]);
  await waitFor(async () => busy().length === 0, 5_000);
});
