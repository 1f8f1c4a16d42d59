import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { documents, documentTransitions, type DocumentStatus } from '@/server/db/schema';
import type { Scope } from '@/server/db/scope';
import { parseOrderInput } from '@/server/orders/order-schema';
import { monthTotals } from '@/server/exports/month-totals';
import { countByStatus } from './count-by-status';
import { createInvoiceDocument } from './create-invoice';
import { ksefUsage } from './ksef-usage';

const t = useTestDatabase();

/** 00:30 on 1 December in Warsaw (UTC+1): still 30 November in UTC. */
const NOW = new Date('2026-11-30T23:30:00Z');

type Facts = { status?: DocumentStatus; issueDate?: string; currency?: string; net?: number; vat?: number; ksefNumber?: string | null; sentAt?: string[] };

/** A document of the scope in the state the pipeline leaves it in, with the transitions into `sending` it went through. */
async function document(scope: Scope, f: Facts = {}) {
  const { document: doc } = await createInvoiceDocument(t.db(), scope, parseOrderInput(paidOrder()));
  const net = f.net ?? 10_000;
  const vat = f.vat ?? 2_300;
  await t
    .db()
    .update(documents)
    .set({
      status: f.status ?? 'accepted',
      number: `FV/${doc.id}`,
      issueDate: f.issueDate ?? '2026-12-01',
      currency: f.currency ?? 'PLN',
      totalNetGrosze: net,
      totalVatGrosze: vat,
      totalGrossGrosze: net + vat,
      fa3Xml: '<Faktura/>',
      ksefNumber: f.ksefNumber === undefined ? `KSEF-${doc.id}` : f.ksefNumber,
    })
    .where(eq(documents.id, doc.id));
  for (const at of f.sentAt ?? [])
    await t
      .db()
      .insert(documentTransitions)
      .values({ documentId: doc.id, fromStatus: 'queued', toStatus: 'sending', at: new Date(at) });
  return doc.id;
}

test("this month's money: documents issued in the Warsaw month of now, per currency, of the scope's account and mode only", async () => {
  const acct = await createTestAccount(t.db());
  const other = await createTestAccount(t.db());
  const live: Scope = { accountId: acct.accountId, mode: 'live' };
  expect(await monthTotals(t.db(), acct.testScope, NOW)).toEqual({ period: '2026-12', totals: [] });

  await document(acct.testScope, { net: 10_000, vat: 2_300 });
  await document(acct.testScope, { net: 5_000, vat: 400 }); // 8% goods
  await document(acct.testScope, { net: -1_000, vat: -230 }); // a correction's refund
  await document(acct.testScope, { currency: 'EUR', net: 2_000, vat: 460 });
  await document(acct.testScope, { issueDate: '2026-11-30' }); // November in Warsaw
  await document(acct.testScope, { status: 'queued', ksefNumber: null }); // numbered, not issued yet
  await document(live, { net: 99_900, vat: 0 });
  await document(other.testScope, { net: 77_700, vat: 0 });

  expect(await monthTotals(t.db(), acct.testScope, NOW)).toEqual({
    period: '2026-12',
    totals: [
      { currency: 'EUR', documents: 1, netGrosze: 2_000, vatGrosze: 460, grossGrosze: 2_460 },
      { currency: 'PLN', documents: 3, netGrosze: 14_000, vatGrosze: 2_470, grossGrosze: 16_470 },
    ],
  });
  expect((await monthTotals(t.db(), live, NOW)).totals).toEqual([{ currency: 'PLN', documents: 1, netGrosze: 99_900, vatGrosze: 0, grossGrosze: 99_900 }]);
  expect((await monthTotals(t.db(), acct.testScope, new Date('2026-11-30T12:00:00Z'))).totals).toEqual([
    { currency: 'PLN', documents: 1, netGrosze: 10_000, vatGrosze: 2_300, grossGrosze: 12_300 },
  ]);
  expect(await countByStatus(t.db(), acct.testScope)).toMatchObject({ accepted: 5, queued: 1, pending: 0 });
});

test("KSeF usage: the scope's own documents handed to KSeF since Warsaw midnight and in the last hour, each once", async () => {
  const acct = await createTestAccount(t.db());
  const other = await createTestAccount(t.db());
  const live: Scope = { accountId: acct.accountId, mode: 'live' };
  expect(await ksefUsage(t.db(), acct.testScope, NOW)).toEqual({ today: 0, lastHour: 0 });

  await document(acct.testScope, { sentAt: ['2026-11-30T23:10:00Z'] }); // today and in the last hour
  await document(acct.testScope, { sentAt: ['2026-11-30T23:05:00Z', '2026-11-30T23:20:00Z'] }); // sent again after a retry: one document
  await document(acct.testScope, { sentAt: ['2026-11-30T22:50:00Z'] }); // the last hour, but 30 November in Warsaw
  await document(acct.testScope, { sentAt: ['2026-11-30T22:59:59Z'] }); // a second before Warsaw midnight: the last hour only
  await document(acct.testScope, { sentAt: ['2026-11-30T12:00:00Z'] }); // yesterday in Warsaw
  await document(acct.testScope, { sentAt: ['2026-11-30T23:45:00Z'] }); // after now: not counted
  await document(live, { sentAt: ['2026-11-30T23:10:00Z'] });
  await document(other.testScope, { sentAt: ['2026-11-30T23:10:00Z'] });

  expect(await ksefUsage(t.db(), acct.testScope, NOW)).toEqual({ today: 2, lastHour: 4 });
  expect(await ksefUsage(t.db(), live, NOW)).toEqual({ today: 1, lastHour: 1 });
});
