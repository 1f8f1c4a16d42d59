import { z } from 'zod';
import { isSupportedCurrency } from './currencies';
import { toAppError } from './input-errors';
import { isValidNip, normalizeNip } from './nip';
import { parseGrosze } from './money';
import { type NormalizedOrder, type NormalizedRefund, ZPaymentMethod } from './types';
import { MAX_BUCKET_GROSZE, parseVatRate, type VatRate } from './vat';

/** Zod schemas of the /v1 `order` (spec 2.4) and `refund` (spec 2.5) inputs and their normalisation. */

const unprocessable = (message: string) => ({ message, params: { code: 'order_unprocessable' } });
/** Any amount above this cannot be an order line; it also keeps every product within safe integers. */
const MAX_LINE_GROSZE = MAX_BUCKET_GROSZE / 1000;

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const optionalText = (max: number) => text(max).nullish().transform((v) => v ?? null);

/** A decimal string → grosze; JSON numbers are refused (spec 7.2: amounts must be strings). */
const amount = z
  .string({ error: 'amounts are decimal strings such as "12.30", never JSON numbers' })
  .transform((value, ctx) => {
    const grosze = parseGrosze(value.trim());
    if (grosze === null) {
      ctx.addIssue({ code: 'custom', message: 'must be a decimal string with a dot and at most 2 decimals, e.g. "12.30"' });
      return z.NEVER;
    }
    return grosze;
  });
const nonNegativeAmount = amount.refine((g) => g >= 0, unprocessable('must not be negative')).refine((g) => g <= MAX_LINE_GROSZE, unprocessable('is too large'));

const vatRate = z.string({ error: 'must be one of "23", "8", "5", "0" (a string)' }).transform((value, ctx): VatRate => {
  const rate = parseVatRate(value.trim());
  if (rate === null) {
    ctx.addIssue({ code: 'custom', message: `rate "${value}" is not one of 23, 8, 5, 0`, params: { code: 'vat_rate_unsupported' } });
    return z.NEVER;
  }
  return rate;
});

const instant = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with a time zone, e.g. "2026-06-01T21:48:03+02:00"' })
  .transform((v) => new Date(v).toISOString());
const quantity = z.number({ error: 'must be a positive integer' }).int('must be a positive integer').positive('must be a positive integer').max(1_000_000, 'must be at most 1000000');
const externalId = z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/, 'must be 1-64 letters, digits or . _ : -');

const ZBuyerInput = z.object({
  nip: z.string().transform(normalizeNip).refine(isValidNip, { message: 'is not a valid Polish NIP (checksum)', params: { code: 'buyer_nip_invalid' } }),
  name: text(512),
  address_line1: text(512),
  address_line2: optionalText(512),
  email: z.email('must be an e-mail address').max(255).nullish().transform((v) => v ?? null),
});

const ZOrderLineInput = z
  .object({
    name: text(512),
    sku: optionalText(50),
    quantity,
    unit_price: nonNegativeAmount,
    discount: nonNegativeAmount.nullish().transform((v) => v ?? 0),
    vat_rate: vatRate,
  })
  .superRefine((line, ctx) => {
    if (line.quantity * line.unit_price > MAX_BUCKET_GROSZE) {
      ctx.addIssue({ code: 'custom', path: ['quantity'], ...unprocessable('quantity × unit_price is too large') });
    } else if (line.discount > line.quantity * line.unit_price) {
      ctx.addIssue({ code: 'custom', path: ['discount'], ...unprocessable('is larger than quantity × unit_price') });
    }
  });

const ZShippingInput = z.object({ name: text(512), price: nonNegativeAmount, vat_rate: vatRate });

export const ZOrderInput = z
  .object({
    external_id: externalId,
    number: optionalText(256),
    created_at: instant.nullish().transform((v) => v ?? null),
    paid_at: instant,
    currency: z
      .string()
      .nullish()
      .transform((v) => (v ?? 'PLN').trim().toUpperCase())
      .refine(isSupportedCurrency, { message: 'is not PLN or a currency of NBP table A', params: { code: 'currency_not_supported' } }),
    payment_method: ZPaymentMethod.nullish().transform((v) => v ?? 'card'),
    buyer: ZBuyerInput,
    lines: z.array(ZOrderLineInput).min(1, 'must have at least 1 line').max(1000, 'must have at most 1000 lines'),
    shipping: z.array(ZShippingInput).max(100, 'must have at most 100 items').nullish().transform((v) => v ?? []),
  })
  .superRefine((order, ctx) => {
    const gross = order.lines.reduce((s, l) => s + l.quantity * l.unit_price - l.discount, 0) + order.shipping.reduce((s, i) => s + i.price, 0);
    if (gross <= 0) ctx.addIssue({ code: 'custom', path: ['lines'], ...unprocessable('the order total must be above zero') });
    if (gross > MAX_BUCKET_GROSZE) ctx.addIssue({ code: 'custom', path: ['lines'], ...unprocessable('the order total is too large') });
  });

const ZRefundLineInput = z.object({ name: text(512), sku: optionalText(50), quantity, unit_price: nonNegativeAmount, vat_rate: vatRate });

export const ZRefundInput = z
  .object({
    external_id: externalId,
    reason: optionalText(256),
    created_at: instant.nullish().transform((v) => v ?? null),
    lines: z.array(ZRefundLineInput).max(1000, 'must have at most 1000 lines').nullish().transform((v) => v ?? []),
    shipping: z.object({ price: nonNegativeAmount }).nullish().transform((v) => v ?? null),
  })
  .superRefine((refund, ctx) => {
    if (refund.lines.length === 0 && !refund.shipping?.price) {
      ctx.addIssue({ code: 'custom', path: [], ...unprocessable('an amount-only refund cannot be split by VAT rate: send the returned `lines` or `shipping`') });
    }
  });

function parseWith<S extends z.ZodType>(schema: S, value: unknown, root: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw toAppError(result.error, value, root);
  return result.data;
}

/** The `order` value of POST /v1/invoices → NormalizedOrder; throws AppError with `param` under `order.`. */
export function parseOrderInput(order: unknown): NormalizedOrder {
  const o = parseWith(ZOrderInput, order, 'order');
  return {
    externalId: o.external_id,
    number: o.number ?? o.external_id,
    createdAt: o.created_at,
    paidAt: o.paid_at,
    currency: o.currency,
    paymentMethod: o.payment_method,
    buyer: {
      nip: o.buyer.nip,
      name: o.buyer.name,
      address1: o.buyer.address_line1,
      address2: o.buyer.address_line2,
      countryCode: 'PL',
      email: o.buyer.email,
      customerNumber: null,
    },
    lines: o.lines.map((l) => ({
      ref: null,
      name: l.name,
      sku: l.sku,
      quantity: l.quantity,
      unitPriceGrosze: l.unit_price,
      discountGrosze: l.discount,
      grossGrosze: l.quantity * l.unit_price - l.discount,
      vatRate: l.vat_rate,
    })),
    // free shipping is not an invoice row (fa3-mapping.md §11)
    shipping: o.shipping.filter((s) => s.price > 0).map((s) => ({ ref: null, name: s.name, grossGrosze: s.price, vatRate: s.vat_rate })),
  };
}

/** The `refund` value of POST /v1/invoices/{id}/corrections → NormalizedRefund; `param` under `refund.`. */
export function parseRefundInput(refund: unknown): NormalizedRefund {
  const r = parseWith(ZRefundInput, refund, 'refund');
  return {
    externalId: r.external_id,
    reason: r.reason,
    createdAt: r.created_at,
    lines: r.lines.map((l) => ({ ref: null, invoiceLineRef: null, name: l.name, sku: l.sku, quantity: l.quantity, unitPriceGrosze: l.unit_price, vatRate: l.vat_rate })),
    shippingGrosze: r.shipping && r.shipping.price > 0 ? r.shipping.price : null,
    shippingRef: null,
  };
}
