import 'server-only';
import { z } from 'zod';
import { createCorrectionDocument } from '@/server/corrections/create-correction';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { correctionsOf, getDocumentWithCorrections } from '@/server/documents/get-document';
import { listInvoices as listInvoiceDocuments } from '@/server/documents/list-invoices';
import { retryDocument } from '@/server/documents/retry-document';
import { serializeDocument } from '@/server/documents/serialize-document';
import { AppError } from '@/server/errors';
import { listEnvelope, ZListQuery } from '@/server/http/list';
import type { Endpoint } from '@/server/http/route';
import { zId } from '@/server/ids';
import { parseParams, queryObject } from '@/server/http/validate';
import { checkInvoiceFits } from '@/server/ksef/fa3/size-estimate';
import { parseOrderInput, parseRefundInput } from '@/server/orders/order-schema';
import type { NormalizedOrder, NormalizedRefund } from '@/server/orders/types';
import { mapShopplatformOrder } from '@/server/orders/woocommerce/map-order';
import { mapShopplatformRefund } from '@/server/orders/woocommerce/map-refund';

export const ZDocumentId = zId('inv', 'cor');
/** The corrected invoice: cor_ ids pass here so that they get correction_requires_invoice, not a format error. */
export const ZInvoiceId = ZDocumentId;

function bodyObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new AppError('parameter_invalid', undefined, 'The body must be a JSON object.');
  return body as Record<string, unknown>;
}

/** Exactly one of `order` or `shopplatform_order` (spec 4.2). */
function orderFromBody(raw: unknown): NormalizedOrder {
  const body = bodyObject(raw);
  const hasOrder = body.order !== undefined;
  const hasShop = body.shopplatform_order !== undefined;
  if (hasOrder === hasShop) {
    throw new AppError(hasOrder ? 'parameter_invalid' : 'parameter_missing', 'order', 'Send exactly one of `order` or `shopplatform_order`.');
  }
  const order = hasOrder ? parseOrderInput(body.order) : mapShopplatformOrder(body.shopplatform_order);
  checkInvoiceFits(order, hasOrder ? 'order.lines' : 'shopplatform_order.line_items'); // before a number is used (KSeF 21402)
  return order;
}

/** Either `refund`, or `shopplatform_order` together with `shopplatform_refund` (spec 4.5). */
function refundFromBody(raw: unknown): NormalizedRefund {
  const body = bodyObject(raw);
  const hasRefund = body.refund !== undefined;
  const hasShop = body.shopplatform_refund !== undefined || body.shopplatform_order !== undefined;
  if (hasRefund && hasShop)
    throw new AppError('parameter_invalid', 'refund', 'Send either `refund` or `shopplatform_order` with `shopplatform_refund`, not both.');
  if (hasRefund) return parseRefundInput(body.refund);
  if (!hasShop) throw new AppError('parameter_missing', 'refund', 'Send `refund`, or `shopplatform_order` with `shopplatform_refund`.');
  if (body.shopplatform_order === undefined)
    throw new AppError('parameter_missing', 'shopplatform_order', '`shopplatform_refund` needs the refunded `shopplatform_order`.');
  if (body.shopplatform_refund === undefined)
    throw new AppError('parameter_missing', 'shopplatform_refund', '`shopplatform_order` needs the `shopplatform_refund`.');
  return mapShopplatformRefund(body.shopplatform_order, body.shopplatform_refund);
}

export const createInvoice: Endpoint<NormalizedOrder> = {
  input: ({ body }) => orderFromBody(body),
  idempotent: { replayStatus: 200 },
  handle: async ({ db, scope, input }) => {
    const { document, created } = await createInvoiceDocument(db, scope, input);
    const corrections = created ? [] : ((await correctionsOf(db, scope, [document.id])).get(document.id) ?? []);
    return { status: created ? 201 : 200, body: serializeDocument(document, corrections) };
  },
};

export const createCorrection: Endpoint<{ invoiceId: string; refund: NormalizedRefund }> = {
  // A cor_ id passes here so that createCorrectionDocument can answer correction_requires_invoice, not parameter_invalid.
  input: ({ body, params }) => ({ invoiceId: parseParams(ZDocumentId, params.id, ['id']), refund: refundFromBody(body) }),
  idempotent: {},
  handle: async ({ db, scope, input }) => {
    const { document, created } = await createCorrectionDocument(db, scope, input.invoiceId, input.refund);
    return { status: created ? 201 : 200, body: serializeDocument(document) };
  },
};

export const retrieveInvoice: Endpoint<{ id: string }> = {
  input: ({ params }) => ({ id: parseParams(ZDocumentId, params.id, ['id']) }),
  handle: async ({ db, scope, input }) => {
    const { doc, corrections } = await getDocumentWithCorrections(db, scope, input.id);
    return { status: 200, body: serializeDocument(doc, corrections) };
  },
};

/**
 * POST /v1/invoices/{id}/retry (beyond the spec, additive): a document in `error`, or `skipped` for a cause fixed
 * since, goes through the pipeline again (retry-document.ts). An Idempotency-Key replay answers the first retry.
 */
export const retryInvoice: Endpoint<{ id: string }> = {
  input: ({ params }) => ({ id: parseParams(ZDocumentId, params.id, ['id']) }),
  idempotent: {},
  handle: async ({ db, scope, input }) => {
    const retried = await retryDocument(db, scope, input.id);
    const corrections = retried.kind === 'invoice' ? ((await correctionsOf(db, scope, [retried.id])).get(retried.id) ?? []) : undefined;
    return { status: 200, body: serializeDocument(retried, corrections) };
  },
};

export const ZListInvoicesQuery = ZListQuery.extend({ external_id: z.string().min(1).optional() });

export const listInvoices: Endpoint<z.infer<typeof ZListInvoicesQuery>> = {
  input: ({ url }) => parseParams(ZListInvoicesQuery, queryObject(url)),
  handle: async ({ db, scope, input }) => {
    const page = await listInvoiceDocuments(db, scope, { limit: input.limit, startingAfter: input.starting_after, externalId: input.external_id });
    return { status: 200, body: listEnvelope('/v1/invoices', page, (p) => serializeDocument(p.invoice, p.corrections)) };
  },
};
