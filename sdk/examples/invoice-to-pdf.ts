import { isKsefRelayError, type Document, type KsefRelay, type OrderInput } from '../src/index.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Create invoice → wait for its final state (polling every 3–5 s, as the API asks) → download the PDF. The
 * Idempotency-Key is derived from the order, so running this again after a crash never makes a second invoice.
 */
export async function invoiceToPdf(relay: KsefRelay, order: OrderInput, pollMs = 4_000): Promise<{ invoice: Document; pdf: Uint8Array }> {
  const created = await relay.invoices.create({ order }, { idempotencyKey: `invoice-${order.external_id}` });
  const invoice = await relay.invoices.waitForFinal(created.id, { intervalMs: pollMs });
  if (invoice.status !== 'accepted') throw new Error(`${invoice.id} ended ${invoice.status}: ${invoice.last_error?.message}`);
  for (;;) {
    try {
      return { invoice, pdf: await relay.invoices.pdf(invoice.id) };
    } catch (err) {
      if (!isKsefRelayError(err, 'pdf_not_ready')) throw err; // rendered a moment after acceptance
      await sleep(pollMs);
    }
  }
}
