import { and, eq, inArray, sql } from 'drizzle-orm';
import { createCorrectionDocument } from '@/server/corrections/create-correction';
import type { Db } from '@/server/db/client';
import { documents, storeDocuments, storeOrders } from '@/server/db/schema';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { AppError } from '@/server/errors';
import { enqueue } from '@/server/jobs/enqueue';
import type { StoreApi, StoreOrder } from './platform';
import { platformOf } from './platforms';
import { scopeOf, storeApi, storeSettings, type StoreRow } from './store-row';

export type IntakeResult = { invoiced: boolean; corrected: number };

type Outcome = typeof storeOrders.$inferInsert;

async function record(db: Db, row: Omit<Outcome, 'updatedAt'>): Promise<void> {
  await db
    .insert(storeOrders)
    .values(row)
    .onConflictDoUpdate({
      target: [storeOrders.storeId, storeOrders.kind, storeOrders.remoteId],
      set: { outcome: row.outcome, reason: row.reason ?? null, message: row.message ?? null, documentId: row.documentId ?? null, updatedAt: sql`now()` },
    });
}

/**
 * Marks a document as the store's, so its acceptance is written back. A document that was already accepted when
 * linked (an invoice the shop had also sent through /v1) is written back now.
 */
async function link(db: Db, documentId: string, store: StoreRow, orderId: number): Promise<void> {
  const inserted = await db
    .insert(storeDocuments)
    .values({ documentId, storeId: store.id, remoteOrderId: orderId })
    .onConflictDoNothing()
    .returning({ id: storeDocuments.documentId });
  if (inserted.length === 0) return;
  const [doc] = await db.select({ status: documents.status }).from(documents).where(eq(documents.id, documentId));
  if (doc?.status === 'accepted') await enqueue(db, 'store_writeback', { documentId });
}

/**
 * An order placed before the connection's invoicing start (the shop may have invoiced it elsewhere), and its
 * refunds: recorded as skipped, never invoiced nor corrected.
 */
async function skipBeforeStart(db: Db, store: StoreRow, order: StoreOrder, createdAt: Date): Promise<IntakeResult> {
  const message = `placed ${createdAt.toISOString()}, before invoicing starts (${store.invoiceFrom.toISOString()})`;
  const skip = { storeId: store.id, remoteOrderId: order.id, outcome: 'skipped' as const, reason: 'placed_before_invoice_from', message };
  await record(db, { ...skip, kind: 'order', remoteId: order.id });
  for (const refundId of order.refundIds) await record(db, { ...skip, kind: 'refund', remoteId: refundId });
  return { invoiced: false, corrected: 0 };
}

/** The refund ids of `ids` already recorded for the store or already corrected through /v1. */
async function refundsSeen(db: Db, store: StoreRow, ids: number[]): Promise<Set<number>> {
  const scope = scopeOf(store);
  const done = new Set<number>();
  for (const r of await db
    .select({ id: storeOrders.remoteId })
    .from(storeOrders)
    .where(and(eq(storeOrders.storeId, store.id), eq(storeOrders.kind, 'refund'), inArray(storeOrders.remoteId, ids))))
    done.add(r.id);
  for (const r of await db
    .select({ id: documents.refundExternalId })
    .from(documents)
    .where(
      and(
        eq(documents.accountId, scope.accountId),
        eq(documents.mode, scope.mode),
        eq(documents.kind, 'correction'),
        inArray(documents.refundExternalId, ids.map(String)),
      ),
    )) {
    done.add(Number(r.id));
  }
  return done;
}

/**
 * One refund not seen before: fetched through the store's API and mapped by the adapter into a correction of the
 * invoice; recorded as skipped when the store no longer has it or it cannot be corrected. True when it made a new
 * correction.
 */
async function intakeRefund(db: Db, store: StoreRow, order: StoreOrder, invoiceId: string, refundId: number, api: () => StoreApi): Promise<boolean> {
  const platform = platformOf(store);
  const scope = scopeOf(store);
  const orderId = order.id;
  const at = { storeId: store.id, kind: 'refund' as const, remoteId: refundId, remoteOrderId: orderId };
  let refund: unknown;
  try {
    refund = await api().refund(orderId, refundId);
  } catch (err) {
    // deleted in the meantime
    if (platform.classify(err) === 'gone') {
      await record(db, { ...at, outcome: 'skipped', reason: 'refund_missing', message: err instanceof Error ? err.message : String(err) });
      return false;
    }
    throw err;
  }
  try {
    const { document, created } = await createCorrectionDocument(db, scope, invoiceId, platform.mapRefund(order, refund));
    await link(db, document.id, store, orderId);
    await record(db, { ...at, outcome: 'corrected', documentId: document.id });
    return created;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    await record(db, { ...at, outcome: 'skipped', reason: err.code, message: err.message });
    return false;
  }
}

/**
 * One store order, as delivered or listed: the invoice through the document intake with the adapter's mapping
 * (external_id = the order id, so a repeat finds the same invoice), then a correction per refund id not seen
 * before, fetched through the store's API and mapped by the adapter. An order that is already invoiced (including
 * the echo of our own meta write) only has its refunds looked at. Orders that cannot be invoiced are recorded with
 * the reason and not retried; API failures throw, so the job retries. Orders placed before the connection's
 * invoicing start are left alone (skipBeforeStart).
 */
export async function intakeStoreOrder(db: Db, store: StoreRow, order: StoreOrder, api: () => StoreApi = () => storeApi(store)): Promise<IntakeResult> {
  if (order.createdAt && order.createdAt < store.invoiceFrom) return skipBeforeStart(db, store, order, order.createdAt);
  const platform = platformOf(store);
  const orderId = order.id;
  const scope = scopeOf(store);
  const result: IntakeResult = { invoiced: false, corrected: 0 };
  let [invoice] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(
      and(
        eq(documents.accountId, scope.accountId),
        eq(documents.mode, scope.mode),
        eq(documents.kind, 'invoice'),
        eq(documents.orderExternalId, String(orderId)),
      ),
    );
  if (!invoice) {
    const decision = platform.decideOrder(order, storeSettings(store));
    if ('skip' in decision) {
      await record(db, {
        storeId: store.id,
        kind: 'order',
        remoteId: orderId,
        remoteOrderId: orderId,
        outcome: 'skipped',
        reason: decision.skip,
        message: decision.message,
      });
      return result;
    }
    const { document, created } = await createInvoiceDocument(db, scope, decision.invoice);
    invoice = { id: document.id };
    result.invoiced = created;
  }
  await link(db, invoice.id, store, orderId);
  await record(db, { storeId: store.id, kind: 'order', remoteId: orderId, remoteOrderId: orderId, outcome: 'invoiced', documentId: invoice.id });

  const ids = order.refundIds;
  if (ids.length === 0) return result;
  const done = await refundsSeen(db, store, ids);
  for (const refundId of ids.filter((id) => !done.has(id))) {
    if (await intakeRefund(db, store, order, invoice.id, refundId, api)) result.corrected += 1;
  }
  return result;
}
