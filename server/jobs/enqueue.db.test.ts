import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { enqueue } from './enqueue';
import { findLeakedLock } from './heartbeat';

const t = useTestDatabase();

const rows = async (key: string) =>
  t.db().execute<{ id: string; run_at: Date }>(sql`select id::text, run_at from graphile_worker._private_jobs where key = ${key}`);

test('enqueueing a waiting key replaces its row by a new one, so a completion by the old id cannot delete the new job', async () => {
  await t.db().transaction((tx) => enqueue(tx, 'offline_deadline', { documentId: 'inv_again' }));
  const [first] = await rows('offline-deadline:inv_again');
  const later = new Date(Date.now() + 60_000);
  await t.db().transaction((tx) => enqueue(tx, 'offline_deadline', { documentId: 'inv_again' }, { runAt: later }));
  const after = await rows('offline-deadline:inv_again');
  expect(after).toHaveLength(1);
  expect(after[0]!.id).not.toBe(first!.id);
  expect(new Date(after[0]!.run_at).getTime()).toBe(later.getTime());
  // what graphile-worker's completion of the first run does
  await t.db().execute(sql`delete from graphile_worker._private_jobs where id = ${first!.id}::bigint`);
  expect(await rows('offline-deadline:inv_again')).toHaveLength(1);
});

test('a lane job is kept while one waits unfetched and due no later; one due later, or fetched before, is replaced', async () => {
  const lane = { accountId: 'acct_lane', mode: 'test' as const };
  const key = 'prepare:acct_lane:test';
  await t.db().transaction((tx) => enqueue(tx, 'document_prepare', lane));
  const [first] = await rows(key);
  await t.db().transaction((tx) => enqueue(tx, 'document_prepare', lane));
  await t.db().transaction((tx) => enqueue(tx, 'document_prepare', lane, { runAt: new Date(Date.now() + 60_000) }));
  expect((await rows(key)).map((r) => r.id)).toEqual([first!.id]); // a burst adds no rows
  // due later than asked: replaced, so the work is not put off
  await t.db().execute(sql`update graphile_worker._private_jobs set run_at = now() + interval '1 hour' where id = ${first!.id}::bigint`);
  await t.db().transaction((tx) => enqueue(tx, 'document_prepare', lane));
  const [sooner] = await rows(key);
  expect(sooner!.id).not.toBe(first!.id);
  expect(new Date(sooner!.run_at).getTime()).toBeLessThanOrEqual(Date.now());
  // fetched once (a runner's row its lock was released from): replaced, so that runner's completion cannot delete the work
  await t.db().execute(sql`update graphile_worker._private_jobs set attempts = 1 where id = ${sooner!.id}::bigint`);
  await t.db().transaction((tx) => enqueue(tx, 'document_prepare', lane));
  const after = await rows(key);
  expect(after).toHaveLength(1);
  expect(after[0]!.id).not.toBe(sooner!.id);
});

test('a job locked for over 30 s under a live id with nothing running here is a leak; one still running is not', async () => {
  await t.db().transaction((tx) => enqueue(tx, 'offline_deadline', { documentId: 'inv_leak' }));
  const [job] = await rows('offline-deadline:inv_leak');
  await t
    .db()
    .execute(sql`update graphile_worker._private_jobs set locked_by = 'worker-live', locked_at = now() - interval '1 minute' where id = ${job!.id}::bigint`);
  expect(await findLeakedLock(t.db(), ['worker-live'], [])).toBe(`job ${job!.id}`);
  expect(await findLeakedLock(t.db(), ['worker-live'], [job!.id])).toBeUndefined();
  expect(await findLeakedLock(t.db(), ['worker-other'], [])).toBeUndefined();
  await t.db().execute(sql`update graphile_worker._private_jobs set locked_at = now() where id = ${job!.id}::bigint`);
  expect(await findLeakedLock(t.db(), ['worker-live'], [])).toBeUndefined();
});

test('many transactions enqueueing one lane key at once leave one waiting job and no dead row', async () => {
  const lane = { accountId: 'acct_crowd', mode: 'test' as const };
  const key = 'pdf:acct_crowd:test';
  for (let round = 0; round < 20; round++) {
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.db().transaction(async (tx) => {
          await enqueue(tx, 'pdf_render', lane, i % 2 ? { runAt: new Date(Date.now() + 1_000) } : {});
          // commits spread over the others' statements, as steps of one seller end at any moment
          await tx.execute(sql`select pg_sleep(${(i % 4) / 1000})`);
        }),
      ),
    );
    // a run fetched the job meanwhile: the next round's enqueues meet a locked row too
    if (round % 5 === 4)
      await t.db().execute(sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'w', attempts = 1 where key = ${key}`);
    if (round % 5 === 0) await t.db().execute(sql`delete from graphile_worker._private_jobs where key is null and locked_by = 'w'`);
  }
  const dead = await t
    .db()
    .execute<{ n: number }>(
      sql`select count(*)::int as n from graphile_worker._private_jobs where key is null and locked_at is null and attempts >= max_attempts`,
    );
  expect(dead[0]!.n).toBe(0);
  expect(await rows(key)).toHaveLength(1);
});
