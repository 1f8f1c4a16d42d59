import { and, asc, eq, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { useWorker } from '@/test/pipeline';
import { waitFor } from '@/test/web';
import { CRONTAB } from '@/worker/task-list';
import { countIssuedThisMonth, setMonthlyLimit } from '@/server/accounts/account-settings';
import { inScope, type Scope } from '@/server/db/scope';
import { documents } from '@/server/db/schema';
import { parseOrderInput, parseRefundInput } from '@/server/orders/order-schema';
import { createCorrectionDocument } from '@/server/corrections/create-correction';
import { jobKey } from '@/server/jobs/registry';
import { createInvoiceDocument } from './create-invoice';
import { releasePlanLimited } from './prepare-document';

/**
 * Live-mode plan limits through the real worker, which here runs only numbering and plan_release: the live
 * documents would otherwise go to the production KSeF.
 */
const t = useTestDatabase();
useWorker(t.url, { tasks: 'document_prepare,plan_release' });

const create = async (scope: Scope) => (await createInvoiceDocument(t.db(), scope, parseOrderInput(paidOrder()))).document.id;

async function states(scope: Scope) {
  return t
    .db()
    .select({ id: documents.id, status: documents.status, number: documents.number, code: sql<string | null>`${documents.lastError}->>'code'` })
    .from(documents)
    .where(inScope(documents, scope))
    .orderBy(asc(documents.seq));
}

const settled = (scope: Scope, expected: Record<string, number>) =>
  waitFor(
    async () => {
      const counts: Record<string, number> = {};
      for (const s of await states(scope)) counts[s.status] = (counts[s.status] ?? 0) + 1;
      return JSON.stringify(counts) === JSON.stringify(expected);
    },
    20_000,
    () => `expected ${JSON.stringify(expected)}`,
  );

const seqNumber = (n: string | null) => (n ? Number(n.split('/')[3]) : null);

test('live: beyond monthly_limit documents wait unnumbered; a plan change releases them in creation order, gapless', async () => {
  const acct = await createTestAccount(t.db());
  const live: Scope = { accountId: acct.accountId, mode: 'live' };
  expect(await setMonthlyLimit(t.db(), acct.accountId, 3)).toBe(true);
  for (let i = 0; i < 5; i++) await create(live);
  await settled(live, { queued: 3, waiting_for_plan_limit: 2 });
  // test mode never counts toward the live plan
  for (let i = 0; i < 4; i++) await create(acct.testScope);
  await settled(acct.testScope, { queued: 4 });
  const late = await create(live); // arrives after others already wait: it queues behind them
  await settled(live, { queued: 3, waiting_for_plan_limit: 3 });

  // the three oldest got the month's three numbers (concurrent numbering may swap them among themselves)
  let rows = await states(live);
  expect(
    rows
      .slice(0, 3)
      .map((r) => seqNumber(r.number))
      .sort(),
  ).toEqual([1, 2, 3]);
  expect(rows.slice(3).map((r) => r.number)).toEqual([null, null, null]);
  expect(rows.slice(3).every((r) => r.code === 'plan_limit_reached')).toBe(true);
  expect(await countIssuedThisMonth(t.db(), live)).toBe(3);

  await setMonthlyLimit(t.db(), acct.accountId, 4); // the CLI's `account plan`: one more fits
  await settled(live, { queued: 4, waiting_for_plan_limit: 2 });
  rows = await states(live);
  expect(rows.slice(3).map((r) => seqNumber(r.number))).toEqual([4, null, null]);

  await setMonthlyLimit(t.db(), acct.accountId, null);
  await settled(live, { queued: 6 });
  rows = await states(live);
  expect(rows.slice(3).map((r) => seqNumber(r.number))).toEqual([4, 5, 6]); // released oldest first
  expect(rows.at(-1)!.id).toBe(late);
  const timeline = await t
    .db()
    .execute<{ to_status: string; code: string | null }>(
      sql`select to_status, error->>'code' as code from document_transitions where document_id = ${late} order by id`,
    );
  expect(timeline.map((s) => (s.code ? `${s.to_status}:${s.code}` : s.to_status))).toEqual(['pending', 'waiting_for_plan_limit:plan_limit_reached', 'queued']);
  expect(await countIssuedThisMonth(t.db(), live)).toBe(6);
});

test('the Warsaw month turn releases the waiting documents into the new month, up to the limit', async () => {
  const acct = await createTestAccount(t.db());
  const live: Scope = { accountId: acct.accountId, mode: 'live' };
  await setMonthlyLimit(t.db(), acct.accountId, 1);
  for (let i = 0; i < 3; i++) await create(live);
  await settled(live, { queued: 1, waiting_for_plan_limit: 2 });
  // nothing changes within the month
  expect(await releasePlanLimited(t.db(), live)).toBe(0);
  const [turn] = await t
    .db()
    .execute<{ ms: number }>(
      sql`select extract(epoch from (date_trunc('month', now() at time zone 'Europe/Warsaw') + interval '1 month') at time zone 'Europe/Warsaw')::float8 * 1000 as ms`,
    );
  const nextMonth = new Date(turn!.ms + 60_000); // 00:01 on the 1st, Warsaw
  expect(await releasePlanLimited(t.db(), live, nextMonth)).toBe(1);
  const rows = await t
    .db()
    .select()
    .from(documents)
    .where(and(inScope(documents, live), eq(documents.status, 'queued')))
    .orderBy(asc(documents.seq));
  expect(rows).toHaveLength(2);
  expect(rows[1]!.number).toMatch(/^FV\/\d{4}\/\d{2}\/1$/);
  expect(rows[1]!.number).not.toBe(rows[0]!.number);
  expect(CRONTAB).toMatch(/^0 \* \* \* \* plan_release/m); // the cron that runs it at every full hour
});

test('a correction of an invoice held by the plan limit waits unnumbered; it is numbered after the invoice, once that is released', async () => {
  const acct = await createTestAccount(t.db());
  const live: Scope = { accountId: acct.accountId, mode: 'live' };
  await setMonthlyLimit(t.db(), acct.accountId, 0);
  const invoice = await create(live);
  await settled(live, { waiting_for_plan_limit: 1 });
  const refund = parseRefundInput({ external_id: 'r-held', lines: [{ name: 'Książka', sku: 'KS-7', quantity: 1, unit_price: '39.90', vat_rate: '5' }] });
  const correction = (await createCorrectionDocument(t.db(), live, invoice, refund)).document.id;
  // its prepare step ran and left it: no KOR number before the invoice has its FV number (invariant 9)
  await waitFor(
    async () => (await t.db().execute(sql`select 1 from graphile_worker.jobs where key = ${jobKey('document_prepare', live)}`)).length === 0,
    20_000,
  );
  expect((await states(live)).map((r) => [r.status, r.number])).toEqual([
    ['waiting_for_plan_limit', null],
    ['pending', null],
  ]);
  await setMonthlyLimit(t.db(), acct.accountId, null);
  await settled(live, { queued: 2 });
  const [fv, kor] = await states(live);
  expect([fv!.id, seqNumber(fv!.number), kor!.id, kor!.number]).toEqual([invoice, 1, correction, expect.stringMatching(/^KOR\/\d{4}\/\d{2}\/1$/)]);
});
