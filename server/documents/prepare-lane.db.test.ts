import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { jobKey } from '@/server/jobs/registry';
import { parseOrderInput } from '@/server/orders/order-schema';
import { createInvoiceDocument } from './create-invoice';
import { prepareLane } from './prepare-document';

/** document_prepare per seller lane (DESIGN pipeline): one step numbers the lane's pending documents in one transaction. */
const t = useTestDatabase();

test('a burst of one seller has one prepare job; one step numbers every buildable document in one transaction, the unbuildable one ends without a number', async () => {
  const acct = await createTestAccount(t.db());
  const other = await createTestAccount(t.db());
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) {
    const order = parseOrderInput(paidOrder({ external_id: `lane-${i}` }));
    // the third cannot be built (a line that does not add up): it must not hold up the others
    const edited = i === 2 ? { ...order, lines: [{ ...order.lines[0]!, grossGrosze: order.lines[0]!.grossGrosze + 1 }] } : order;
    ids.push((await createInvoiceDocument(t.db(), acct.testScope, edited)).document.id);
  }
  const otherId = (await createInvoiceDocument(t.db(), other.testScope, parseOrderInput(paidOrder()))).document.id;
  const prepareJobs = await t.db().execute<{ key: string }>(sql`select key from graphile_worker.jobs where task_identifier = 'document_prepare' order by key`);
  expect(prepareJobs.map((j) => j.key).sort()).toEqual([jobKey('document_prepare', acct.testScope), jobKey('document_prepare', other.testScope)].sort());

  await prepareLane(t.db(), acct.testScope);

  const rows = await t
    .db()
    .execute<{ id: string; status: string; number: string | null; code: string | null }>(
      sql`select id, status, number, last_error->>'code' as code from documents where id in ${[...ids, otherId]} order by seq`,
    );
  expect(rows.map((r) => [r.status, r.number?.split('/')[3] ?? null, r.code])).toEqual([
    ['queued', '1', null],
    ['queued', '2', null],
    ['error', null, 'invoice_build_failed'],
    ['queued', '3', null],
    ['queued', '4', null],
    ['queued', '5', null],
    ['pending', null, null], // another lane: its own step
  ]);
  // one transaction: every move to queued bears the same transaction time
  const queuedAt = await t
    .db()
    .execute<{ n: number }>(sql`select count(distinct at)::int as n from document_transitions where document_id in ${ids} and to_status = 'queued'`);
  expect(queuedAt[0]!.n).toBe(1);
});
