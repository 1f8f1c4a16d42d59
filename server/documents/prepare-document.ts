import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { documents } from '../db/schema';
import { enqueue } from '../jobs/enqueue';
import { getRateForPayment } from '../nbp/rates';
import { NbpRateNotFoundError } from '../nbp/client';
import { warsawDate } from '../orders/dates';
import { computeCorrection, computeTotals } from '../orders/totals';
import { ZNormalizedOrder, ZNormalizedRefund } from '../orders/types';
import { sendQueue } from '../submission/credentials';
import type { DocumentRow } from './document-row';
import { documentError } from './document-errors';
import { earlierRefunds } from './earlier-refunds';
import { withLockedDocument } from './locked';
import { formatNumber, periodOf, seriesOf, takeNextNumber } from './numbering';
import { sellerOf } from './seller';
import { transition } from './transition';
import { wakeCorrections } from './wake-corrections';

type Prepared = { exchangeRate: { rate: string; date: string; table: string } | null; currency: string; buyerNip: string; orderNumber: string };

/**
 * document_prepare (DESIGN pipeline): seller data, NBP rate, then the number and status queued with the send job,
 * in one transaction (invariant 1). Safe to run twice: anything but a pending document is left alone.
 */
export async function prepareDocument(db: Db, documentId: string, now = new Date()): Promise<void> {
  const doc = await load(db, documentId);
  if (!doc || doc.status !== 'pending') return;
  const scope = { accountId: doc.accountId, mode: doc.mode };
  const original = doc.invoiceId ? await load(db, doc.invoiceId) : null;

  if (!(await sellerOf(db, scope))) return skip(db, doc, 'seller_not_configured');
  if (original && (original.status === 'skipped' || original.status === 'error')) return skip(db, doc, 'original_not_invoiced');
  if (original?.status === 'rejected') return skip(db, doc, 'original_rejected');

  const order = ZNormalizedOrder.parse((original ?? doc).input);
  let exchangeRate: Prepared['exchangeRate'] = null;
  if (doc.kind === 'invoice' && order.currency !== 'PLN') {
    try {
      exchangeRate = await getRateForPayment(db, order.currency, order.paidAt); // NbpUnavailableError: the job retries later
    } catch (err) {
      if (err instanceof NbpRateNotFoundError) return fail(db, doc, `NBP has no table A rate for ${order.currency} before ${order.paidAt}.`);
      throw err;
    }
  }
  const prepared: Prepared = { exchangeRate, currency: order.currency, buyerNip: order.buyer.nip, orderNumber: order.number };

  await withLockedDocument(db, doc.id, ['pending'], async (tx, locked) => {
    const issueDate = warsawDate(now.toISOString());
    const totalGross =
      locked.kind === 'invoice'
        ? computeTotals(order).grossGrosze
        : computeCorrection(order, await earlierRefunds(tx, original!.id, locked.seq), ZNormalizedRefund.parse(locked.input)).grossGrosze;
    const series = seriesOf(locked.kind);
    const n = await takeNextNumber(tx, scope, series, periodOf(issueDate));
    await transition(tx, locked, 'queued', {
      number: formatNumber(series, periodOf(issueDate), n),
      issueDate,
      totalGrossGrosze: totalGross,
      currency: prepared.currency,
      buyerNip: prepared.buyerNip,
      orderNumber: prepared.orderNumber,
      exchangeRate: prepared.exchangeRate,
      lastError: null,
    });
    await enqueue(tx, 'ksef_send', { documentId: locked.id }, { jobKey: `send:${locked.id}`, queueName: sendQueue(scope) });
  });
}

async function load(db: Db | Tx, id: string): Promise<DocumentRow | undefined> {
  const [doc] = await db.select().from(documents).where(eq(documents.id, id));
  return doc;
}

async function skip(db: Db, doc: DocumentRow, code: 'seller_not_configured' | 'original_not_invoiced' | 'original_rejected'): Promise<void> {
  await withLockedDocument(db, doc.id, ['pending'], async (tx, locked) => {
    const skipped = await transition(tx, locked, 'skipped', { lastError: documentError(code) });
    if (skipped.kind === 'invoice') await wakeCorrections(tx, skipped);
  });
}

async function fail(db: Db, doc: DocumentRow, message: string): Promise<void> {
  await withLockedDocument(db, doc.id, ['pending'], async (tx, locked) => {
    const failed = await transition(tx, locked, 'error', { lastError: documentError('invoice_build_failed', message) });
    if (failed.kind === 'invoice') await wakeCorrections(tx, failed);
  });
}
