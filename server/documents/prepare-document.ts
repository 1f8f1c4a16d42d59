import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import { countIssuedThisMonth } from '@/server/accounts/account-settings';
import type { Db, Tx } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { accountModes, documents, type DocumentStatus, type DocumentWarning, type StoredError } from '@/server/db/schema';
import { enqueue } from '@/server/jobs/enqueue';
import type { ExchangeRate } from '@/server/ksef/fa3/exchange-rate';
import type { Seller } from '@/server/ksef/fa3/parts';
import { getRateForTaxPoint } from '@/server/nbp/rates';
import { NbpRateNotFoundError } from '@/server/nbp/client';
import { warsawDate } from '@/server/calendar/dates';
import { buyerAddressProblem, lateDeadline, taxPoint } from '@/server/orders/tax-dates';
import { computeCorrection, computeTotals } from '@/server/orders/totals';
import { type NormalizedOrder, ZNormalizedOrder, ZNormalizedRefund } from '@/server/orders/types';
import type { DocumentRow } from './document-row';
import { documentError } from './document-errors';
import { earlierRefunds } from './earlier-refunds';
import { withLockedDocument } from './locked';
import { formatNumber, periodOf, seriesOf, takeNextNumber } from './numbering';
import { checkSellerOf } from './seller';
import { type BeforeNumber, checkBeforeNumber } from './check-before-number';
import { transition } from './transition';
import { addWarnings } from './warnings';
import { documentWarning } from './warning-texts';
import { loadDocument, lockDocument, selectDocuments } from './load-document';

type Prepared = { exchangeRate: { rate: string; date: string; table: string } | null; currency: string; buyerNip: string; orderNumber: string };

type Preparation = 'numbered' | 'waiting' | 'other';

/**
 * document_prepare (DESIGN pipeline): seller data, NBP rate, the document built and schema-checked as it will be
 * sent (invariant 9), plan limit (live), then the number and status queued with the send job, in one transaction
 * (invariant 1). Safe to run twice: anything but a pending document is left alone.
 */
export async function prepareDocument(db: Db, documentId: string, now = new Date()): Promise<void> {
  await prepareFrom(db, documentId, 'pending', now);
}

/**
 * Numbers the scope's documents waiting for the plan limit, oldest (seq) first, while the plan has room: after a
 * plan change (setMonthlyLimit enqueues plan_release) and when a Warsaw month starts (hourly cron). Returns how
 * many were numbered.
 */
export async function releasePlanLimited(db: Db, scope: Scope, now = new Date()): Promise<number> {
  let released = 0;
  for (;;) {
    const [next] = await db
      .select({ id: documents.id })
      .from(documents)
      .where(and(inScope(documents, scope), eq(documents.status, 'waiting_for_plan_limit')))
      .orderBy(asc(documents.seq))
      .limit(1);
    if (!next || (await prepareFrom(db, next.id, 'waiting_for_plan_limit', now)) !== 'numbered') return released;
    released++;
  }
}

/** releasePlanLimited for every scope that has waiting documents (the cron run). */
export async function releaseAllPlanLimited(db: Db, now = new Date()): Promise<number> {
  const scopes = await db
    .selectDistinct({ accountId: documents.accountId, mode: documents.mode })
    .from(documents)
    .where(eq(documents.status, 'waiting_for_plan_limit'));
  let released = 0;
  for (const scope of scopes) released += await releasePlanLimited(db, scope, now);
  return released;
}

/**
 * Whether a live invoice must wait: older invoices already wait (they are numbered first, in creation order), or
 * the month's invoices plus the older ones still being prepared reach monthly_limit (those older ones take the
 * places left). The account row lock orders this against plan changes and other numbering of the scope.
 * 'behind' means only the older pending ones are in the way: a release retries shortly.
 */
async function planVerdict(tx: Tx, doc: DocumentRow, period: string): Promise<'go' | 'wait' | 'behind'> {
  if (doc.mode !== 'live' || doc.kind !== 'invoice') return 'go'; // test mode never counts; the plan counts invoices
  const scope = { accountId: doc.accountId, mode: doc.mode };
  const [plan] = await tx.select({ monthlyLimit: accountModes.monthlyLimit }).from(accountModes).where(inScope(accountModes, scope)).for('update');
  const [older] = await tx
    .select({
      waiting: sql<number>`count(*) filter (where ${documents.status} = 'waiting_for_plan_limit')::int`,
      pending: sql<number>`count(*) filter (where ${documents.status} = 'pending')::int`,
    })
    .from(documents)
    .where(
      and(
        inScope(documents, scope),
        eq(documents.kind, 'invoice'),
        inArray(documents.status, ['waiting_for_plan_limit', 'pending']),
        lt(documents.seq, doc.seq),
      ),
    );
  if (older && older.waiting > 0) return 'wait';
  const limit = plan?.monthlyLimit ?? null;
  if (limit === null) return 'go';
  const used = await countIssuedThisMonth(tx, scope, period);
  if (used + (older?.pending ?? 0) < limit) return 'go';
  return used < limit ? 'behind' : 'wait';
}

/** A document every check before numbering passed (invariant 9), with what its numbering records. */
type Ready = { doc: DocumentRow; original: DocumentRow | null; order: NormalizedOrder; prepared: Prepared; issueDate: string };

async function prepareFrom(db: Db, documentId: string, from: 'pending' | 'waiting_for_plan_limit', now: Date): Promise<Preparation> {
  const doc = await loadDocument(db, documentId);
  if (!doc || doc.status !== from) return 'other';
  const checked = await checkForNumber(db, doc, await checkSellerOf(db, { accountId: doc.accountId, mode: doc.mode }), now);
  if (typeof checked === 'string') return checked;
  return db.transaction((tx) => numberLocked(tx, checked, from));
}

/** How many pending documents one step of a lane numbers; more are left to the lane's next step. */
export const PREPARE_LANE_BOUND = 200;

/**
 * document_prepare for a seller lane (DESIGN pipeline): every pending document of the lane, oldest first, is
 * checked as prepareDocument checks one; those that pass are numbered in ONE transaction (counter, numbers,
 * `queued` and their lane's send job commit together: invariant 1). A document that fails a check is skipped, ends in
 * error or waits exactly as alone; one whose check failed (NBP down, a fault) stays pending and the step fails
 * after numbering the others, so graphile-worker retries the lane with its back-off.
 */
export async function prepareLane(db: Db, scope: Scope, now = new Date()): Promise<void> {
  const pending = await selectDocuments(db, and(inScope(documents, scope), eq(documents.status, 'pending')), asc(documents.seq), PREPARE_LANE_BOUND + 1);
  if (pending.length === 0) return;
  const seller = await checkSellerOf(db, scope); // one lane, one seller
  const ready: Ready[] = [];
  let failure: unknown;
  for (const doc of pending.slice(0, PREPARE_LANE_BOUND)) {
    try {
      const checked = await checkForNumber(db, doc, seller, now);
      if (typeof checked !== 'string') ready.push(checked);
    } catch (err) {
      failure ??= err;
    }
  }
  if (ready.length)
    await db.transaction(async (tx) => {
      for (const r of ready) await numberLocked(tx, r, 'pending');
    });
  if (pending.length > PREPARE_LANE_BOUND) await enqueue(db, 'document_prepare', scope);
  if (failure) throw failure;
}

/** Every check before numbering (invariant 9): the document ready for its number, or how its preparation ended. */
async function checkForNumber(db: Db, doc: DocumentRow, seller: Awaited<ReturnType<typeof checkSellerOf>>, now: Date): Promise<Ready | Preparation> {
  const original = doc.invoiceId ? ((await loadDocument(db, doc.invoiceId)) ?? null) : null;
  if (!seller.ok) return skip(db, doc, 'seller_not_configured', seller.problem);
  if (original && (original.status === 'skipped' || original.status === 'error')) return skip(db, doc, 'original_not_invoiced');
  if (original?.status === 'rejected') return skip(db, doc, 'original_rejected');
  // a correction is numbered only after its invoice (invariant 9): numbered first, it could bear an earlier date than
  // the invoice it corrects once that is numbered in a later month (plan limit, NBP down). transition() prepares it
  // again when the invoice takes its number or ends; ksef_sweep does within a minute if the two commits crossed.
  if (original && original.number === null) return 'waiting';

  const order = ZNormalizedOrder.parse((original ?? doc).input);
  let exchangeRate: Prepared['exchangeRate'] = null;
  if (doc.kind === 'invoice' && order.currency !== 'PLN') {
    try {
      exchangeRate = await getRateForTaxPoint(db, order.currency, taxPoint(order)); // NbpUnavailableError: the job retries later
    } catch (err) {
      if (err instanceof NbpRateNotFoundError)
        return fail(db, doc, documentError('invoice_build_failed', `NBP has no table A rate for ${order.currency} before ${taxPoint(order)}.`));
      throw err;
    }
  }
  const prepared: Prepared = { exchangeRate, currency: order.currency, buyerNip: order.buyer.nip, orderNumber: order.number };
  const issueDate = warsawDate(now.toISOString());
  const unbuildable = checkBeforeNumber(await beforeNumberInput(db, { doc, original, order, seller: seller.seller, exchangeRate, issueDate, now }));
  if (unbuildable) return fail(db, doc, unbuildable);
  return { doc, original, order, prepared, issueDate };
}

/**
 * In the caller's transaction, under the document's row lock and only while it is still `from`: the plan limit
 * (live), then the number, `queued` and the lane's send job (invariant 1).
 */
async function numberLocked(tx: Tx, ready: Ready, from: 'pending' | 'waiting_for_plan_limit'): Promise<Preparation> {
  const { order, original, prepared, issueDate } = ready;
  const locked = await lockDocument(tx, ready.doc.id);
  if (!locked || locked.status !== from) return 'other';
  const scope = { accountId: locked.accountId, mode: locked.mode };
  const verdict = await planVerdict(tx, locked, periodOf(issueDate));
  if (verdict !== 'go') {
    if (locked.status === 'pending') await transition(tx, locked, 'waiting_for_plan_limit', { lastError: documentError('plan_limit_reached') });
    if (verdict === 'behind') await enqueue(tx, 'plan_release', scope, { runAt: new Date(Date.now() + 2_000) });
    return 'waiting';
  }
  const totals =
    locked.kind === 'invoice'
      ? computeTotals(order)
      : computeCorrection(order, await earlierRefunds(tx, original!.id, locked.seq), ZNormalizedRefund.parse(locked.input));
  const series = seriesOf(locked.kind);
  const n = await takeNextNumber(tx, scope, series, periodOf(issueDate));
  const queued = await transition(tx, locked, 'queued', {
    number: formatNumber(series, periodOf(issueDate), n),
    issueDate,
    totalGrossGrosze: totals.grossGrosze,
    totalNetGrosze: totals.netGrosze,
    totalVatGrosze: totals.vatGrosze,
    currency: prepared.currency,
    buyerNip: prepared.buyerNip,
    buyerName: order.buyer.name,
    orderNumber: prepared.orderNumber,
    exchangeRate: prepared.exchangeRate,
    lastError: null,
  });
  if (locked.kind === 'invoice') await addWarnings(tx, queued, invoiceWarnings(order, issueDate));
  await enqueue(tx, 'ksef_send', scope);
  return 'numbered';
}

/** What checkBeforeNumber builds from: what the send step will build from, for a correction its original as far as it is known. */
export async function beforeNumberInput(
  db: Db,
  p: {
    doc: DocumentRow;
    original: DocumentRow | null | undefined;
    order: NormalizedOrder;
    seller: Seller;
    exchangeRate: ExchangeRate | null;
    issueDate: string;
    now: Date;
  },
): Promise<BeforeNumber> {
  const { doc, original, seller, issueDate, now } = p;
  if (!original) return { kind: 'invoice', seller, documentId: doc.id, issueDate, now, order: p.order, exchangeRate: p.exchangeRate };
  return {
    kind: 'correction',
    seller,
    documentId: doc.id,
    issueDate,
    now,
    original: {
      order: p.order,
      number: original.number,
      issueDate: original.issueDate,
      ksefNumber: original.ksefNumber,
      exchangeRate: original.exchangeRate as ExchangeRate | null,
      fa3Xml: original.fa3Xml,
      documentId: original.id,
    },
    earlierRefunds: await earlierRefunds(db, original.id, doc.seq),
    refund: ZNormalizedRefund.parse(doc.input),
  };
}

/** What a person should see about an invoice that still goes out: late (art. 106i ust. 1-2), buyer address incomplete. */
export function invoiceWarnings(order: NormalizedOrder, issueDate: string): DocumentWarning[] {
  const warnings: DocumentWarning[] = [];
  const deadline = lateDeadline(issueDate, order.deliveredAt ?? undefined, warsawDate(order.paidAt));
  if (deadline) {
    warnings.push(documentWarning('invoice_late', { issueDate, deadline }));
  }
  const address = buyerAddressProblem(order.buyer);
  if (address !== null) warnings.push(documentWarning('buyer_address_incomplete', { address }));
  return warnings;
}

/** Ends the preparation in a final state (with its event); an invoice's waiting corrections are woken. */
async function end(db: Db, doc: DocumentRow, to: 'skipped' | 'error', error: StoredError, from: DocumentStatus[]): Promise<Preparation> {
  await withLockedDocument(db, doc.id, from, async (tx, locked) => {
    await transition(tx, locked, to, { lastError: error });
  });
  return 'other';
}

const skip = (db: Db, doc: DocumentRow, code: 'seller_not_configured' | 'original_not_invoiced' | 'original_rejected', message?: string) =>
  end(db, doc, 'skipped', documentError(code, message), ['pending', 'waiting_for_plan_limit']);

/** A document that cannot be built ends in error without a number (invariant 9); it may be retried once fixed. */
const fail = (db: Db, doc: DocumentRow, error: StoredError) => end(db, doc, 'error', error, ['pending', 'waiting_for_plan_limit']);
