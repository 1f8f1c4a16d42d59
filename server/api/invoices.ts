import { z } from 'zod';
import { createCorrectionDocument } from '../documents/create-correction';
import { createInvoiceDocument } from '../documents/create-invoice';
import { correctionsOf, getDocument } from '../documents/get-document';
import { listInvoices as listInvoiceDocuments } from '../documents/list-invoices';
import { serializeDocument } from '../documents/serialize-document';
import { AppError } from '../errors';
import type { Endpoint } from '../http/route';
import { parseParams, queryObject } from '../http/validate';
import { parseOrderInput, parseRefundInput } from '../orders/order-schema';
import type { NormalizedOrder, NormalizedRefund } from '../orders/types';
import { mapShopplatformOrder } from '../orders/woocommerce/map-order';
import { mapShopplatformRefund } from '../orders/woocommerce/map-refund';

const ZDocumentId = z.string().regex(/^(inv|cor)_[0-9A-Za-z]{1,64}$/, 'must be an inv_ or cor_ id');
const ZInvoiceId = z.string().regex(/^(inv|cor)_[0-9A-Za-z]{1,64}$/, 'must be an inv_ id');

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
  return hasOrder ? parseOrderInput(body.order) : mapShopplatformOrder(body.shopplatform_order);
}

/** Either `refund`, or `shopplatform_order` together with `shopplatform_refund` (spec 4.5). */
function refundFromBody(raw: unknown): NormalizedRefund {
  const body = bodyObject(raw);
  const hasRefund = body.refund !== undefined;
  const hasShop = body.shopplatform_refund !== undefined || body.shopplatform_order !== undefined;
  if (hasRefund && hasShop) throw new AppError('parameter_invalid', 'refund', 'Send either `refund` or `shopplatform_order` with `shopplatform_refund`, not both.');
  if (hasRefund) return parseRefundInput(body.refund);
  if (!hasShop) throw new AppError('parameter_missing', 'refund', 'Send `refund`, or `shopplatform_order` with `shopplatform_refund`.');
  if (body.shopplatform_order === undefined) throw new AppError('parameter_missing', 'shopplatform_order', '`shopplatform_refund` needs the refunded `shopplatform_order`.');
  if (body.shopplatform_refund === undefined) throw new AppError('parameter_missing', 'shopplatform_refund', '`shopplatform_order` needs the `shopplatform_refund`.');
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
  input: ({ body, params }) => ({ invoiceId: parseParams(ZInvoiceId, params.id, ['id']), refund: refundFromBody(body) }),
  idempotent: {},
  handle: async ({ db, scope, input }) => {
    const { document, created } = await createCorrectionDocument(db, scope, input.invoiceId, input.refund);
    return { status: created ? 201 : 200, body: serializeDocument(document) };
  },
};

export const retrieveInvoice: Endpoint<{ id: string }> = {
  input: ({ params }) => ({ id: parseParams(ZDocumentId, params.id, ['id']) }),
  handle: async ({ db, scope, input }) => {
    const doc = await getDocument(db, scope, input.id);
    const corrections = doc.kind === 'invoice' ? ((await correctionsOf(db, scope, [doc.id])).get(doc.id) ?? []) : [];
    return { status: 200, body: serializeDocument(doc, corrections) };
  },
};

const ZListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  starting_after: z.string().min(1).optional(),
  external_id: z.string().min(1).optional(),
});

export const listInvoices: Endpoint<z.infer<typeof ZListQuery>> = {
  input: ({ url }) => parseParams(ZListQuery, queryObject(url)),
  handle: async ({ db, scope, input }) => {
    const page = await listInvoiceDocuments(db, scope, { limit: input.limit, startingAfter: input.starting_after, externalId: input.external_id });
    return {
      status: 200,
      body: { object: 'list', url: '/v1/invoices', has_more: page.hasMore, data: page.invoices.map((p) => serializeDocument(p.invoice, p.corrections)) },
    };
  },
};
