import { z } from 'zod';
import { warsawDate } from '@/server/calendar/dates';
import { AppError } from '@/server/errors';
import { parseVatRate, VAT_RATES, vatRateList, type VatRate } from '@/server/facts/vat-rates';
import { isSupportedCurrency } from './currencies';
import { toAppError } from './input-errors';
import { isValidNip, normalizeNip } from './nip';
import { parseGrosze } from './money';
import { cleanText } from './text';
import { type NormalizedOrder, type NormalizedRefund, ZPaymentMethod } from './types';
import { MAX_BUCKET_GROSZE } from './vat';

/** Zod schemas of the /v1 `order` (spec 2.4) and `refund` (spec 2.5) inputs and their normalisation. */

const unprocessable = (message: string) => ({ message, params: { code: 'order_unprocessable' } });
/** Any amount above this cannot be an order line; it also keeps every product within safe integers. */
const MAX_LINE_GROSZE = MAX_BUCKET_GROSZE / 1000;

/** Free text as the invoice will print it: the FA(3) sanitizer (text.ts) first, then the length rules. */
const text = (max: number) =>
  z
    .string()
    .transform((v) => cleanText(v, Number.MAX_SAFE_INTEGER))
    .pipe(z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`));
const optionalText = (max: number) =>
  text(max)
    .nullish()
    .transform((v) => v ?? null);

/** A decimal string → grosze; JSON numbers are refused (spec 7.2: amounts must be strings). */
const amount = z.string({ error: 'amounts are decimal strings such as "12.30", never JSON numbers' }).transform((value, ctx) => {
  const grosze = parseGrosze(value.trim());
  if (grosze === null) {
    ctx.addIssue({ code: 'custom', message: 'must be a decimal string with a dot and at most 2 decimals, e.g. "12.30"' });
    return z.NEVER;
  }
  return grosze;
});
const nonNegativeAmount = amount
  .refine((g) => g >= 0, unprocessable('must not be negative'))
  .refine((g) => g <= MAX_LINE_GROSZE, unprocessable('is too large'));

const vatRate = z.string({ error: `must be one of ${VAT_RATES.map((r) => `"${r}"`).join(', ')} (a string)` }).transform((value, ctx): VatRate => {
  const rate = parseVatRate(value.trim());
  if (rate === null) {
    ctx.addIssue({ code: 'custom', message: `rate "${value}" is not one of ${vatRateList()}`, params: { code: 'vat_rate_unsupported' } });
    return z.NEVER;
  }
  return rate;
});

const instant = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date-time with a time zone, e.g. "2026-06-01T21:48:03+02:00"' })
  .transform((v) => new Date(v).toISOString());
/**
 * An instant whose Europe/Warsaw date FA(3) can carry: the XSD bounds each date type (TData for DataZaplaty from
 * 2016-07-01, TDataU for DataZamowienia from 1990-01-01, both to 2050-01-01). Refused here, before a number is
 * taken, instead of failing the schema after numbering and leaving a gap.
 */
const instantWithin = (from: string, to: string) =>
  instant.refine((iso) => {
    const day = warsawDate(iso);
    return day >= from && day <= to;
  }, `must be a date from ${from} to ${to} (what FA(3) can carry)`);
const quantity = z
  .number({ error: 'must be a positive integer' })
  .int('must be a positive integer')
  .positive('must be a positive integer')
  .max(1_000_000, 'must be at most 1000000');
const externalId = z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/, 'must be 1-64 letters, digits or . _ : -');

const nip = z
  .string()
  .transform(normalizeNip)
  .refine(isValidNip, { message: 'is not a valid Polish NIP (checksum)', params: { code: 'buyer_nip_invalid' } });
const flag = z
  .boolean({ error: 'must be true or false' })
  .nullish()
  .transform((v) => v ?? false);

/** The JST unit or VAT-group member the invoice concerns (FA(3) Podmiot3, tax-rules.md §6). */
const ZRecipientInput = z.object({ nip, name: text(512), address_line1: text(512), address_line2: optionalText(512) });

const ZBuyerInput = z
  .object({
    nip,
    name: text(512),
    address_line1: text(512),
    address_line2: optionalText(512),
    email: z
      .email('must be an e-mail address')
      .max(255)
      .nullish()
      .transform((v) => v ?? null),
    jst: flag,
    vat_group: flag,
    recipient: ZRecipientInput.nullish().transform((v) => v ?? null),
  })
  .superRefine((buyer, ctx) => {
    if (buyer.jst && buyer.vat_group)
      ctx.addIssue({
        code: 'custom',
        path: ['vat_group'],
        message: 'cannot be true together with jst: one invoice concerns one JST unit or one VAT-group member',
      });
    else if ((buyer.jst || buyer.vat_group) && !buyer.recipient)
      ctx.addIssue({ code: 'custom', path: ['recipient'], message: 'is required when jst or vat_group is true', params: { code: 'parameter_missing' } });
    else if (!buyer.jst && !buyer.vat_group && buyer.recipient)
      ctx.addIssue({ code: 'custom', path: ['recipient'], message: 'is only for an invoice with jst or vat_group true' });
  });

const ZOrderLineInput = z
  .object({
    name: text(512),
    sku: optionalText(50),
    quantity,
    unit_price: nonNegativeAmount,
    discount: nonNegativeAmount.nullish().transform((v) => v ?? 0),
    vat_rate: vatRate,
    annex15: flag,
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
    created_at: instantWithin('1990-01-01', '2050-01-01')
      .nullish()
      .transform((v) => v ?? null),
    paid_at: instantWithin('2016-07-01', '2050-01-01'),
    delivered_at: z.iso
      .date({ error: 'must be a date, e.g. "2026-06-03"' })
      .refine((d) => d >= '2006-01-01' && d <= '2050-01-01', 'must be a date between 2006-01-01 and 2050-01-01')
      .nullish()
      .transform((v) => v ?? null),
    currency: z
      .string()
      .nullish()
      .transform((v) => (v ?? 'PLN').trim().toUpperCase())
      .refine(isSupportedCurrency, { message: 'is not PLN or a currency of NBP table A', params: { code: 'currency_not_supported' } }),
    payment_method: ZPaymentMethod.nullish().transform((v) => v ?? 'card'),
    buyer: ZBuyerInput,
    lines: z.array(ZOrderLineInput).min(1, 'must have at least 1 line').max(1000, 'must have at most 1000 lines'),
    shipping: z
      .array(ZShippingInput)
      .max(100, 'must have at most 100 items')
      .nullish()
      .transform((v) => v ?? []),
  })
  .superRefine((order, ctx) => {
    const gross = order.lines.reduce((s, l) => s + l.quantity * l.unit_price - l.discount, 0) + order.shipping.reduce((s, i) => s + i.price, 0);
    if (gross <= 0) ctx.addIssue({ code: 'custom', path: ['lines'], ...unprocessable('the order total must be above zero') });
    if (gross > MAX_BUCKET_GROSZE) ctx.addIssue({ code: 'custom', path: ['lines'], ...unprocessable('the order total is too large') });
  });

const ZRefundLineInput = z
  .object({
    name: text(512),
    sku: optionalText(50),
    quantity,
    unit_price: nonNegativeAmount,
    vat_rate: vatRate,
    restocking_fee: nonNegativeAmount
      .nullish()
      .transform((v) => v ?? 0)
      .describe(
        'Gross amount the shop keeps from the refund of these returned items (a restocking fee). The items are returned at unit_price (as invoiced); the correction shows the fee as its own row.',
      ),
  })
  .superRefine((line, ctx) => {
    if (line.restocking_fee > line.quantity * line.unit_price)
      ctx.addIssue({ code: 'custom', path: ['restocking_fee'], ...unprocessable('is larger than quantity × unit_price') });
  });

export const ZRefundInput = z
  .object({
    external_id: externalId,
    reason: optionalText(256),
    created_at: instantWithin('1990-01-01', '2050-01-01')
      .nullish()
      .transform((v) => v ?? null),
    lines: z
      .array(ZRefundLineInput)
      .max(1000, 'must have at most 1000 lines')
      .nullish()
      .transform((v) => v ?? []),
    shipping: z
      .object({ price: nonNegativeAmount })
      .nullish()
      .transform((v) => v ?? null),
  })
  .superRefine((refund, ctx) => {
    if (refund.lines.length === 0 && !refund.shipping?.price) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        ...unprocessable('an amount-only refund cannot be split by VAT rate: send the returned `lines` or `shipping`'),
      });
    }
  });

function parseWith<S extends z.ZodType>(schema: S, value: unknown, root: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw toAppError(result.error, value, root);
  return result.data;
}

/** Clock skew tolerated between the shop and us before a payment counts as "in the future". */
export const PAID_AT_SKEW_MS = 5 * 60_000;

/**
 * No invoice for a payment that has not happened: paid_at more than a few minutes ahead of `now` is refused
 * (art. 106i ust. 7 bars an invoice more than 60 days before the payment, and the NBP rate date follows paid_at).
 */
export function checkPaidAtNotFuture(paidAt: string, now: Date, param: string): void {
  if (new Date(paidAt).getTime() > now.getTime() + PAID_AT_SKEW_MS) {
    throw new AppError('order_not_paid', param, `${param} ${paidAt} is in the future: an order is invoiced once it is paid.`);
  }
}

/** A delivery date after today (Warsaw) has not happened yet. */
function checkDeliveredAt(deliveredAt: string | null, now: Date): void {
  if (deliveredAt && deliveredAt > warsawDate(now.toISOString()))
    throw new AppError('parameter_invalid', 'order.delivered_at', `order.delivered_at ${deliveredAt} is in the future.`);
}

/** The `order` value of POST /v1/invoices → NormalizedOrder; throws AppError with `param` under `order.`. `now` is the intake time. */
export function parseOrderInput(order: unknown, now: Date = new Date()): NormalizedOrder {
  const o = parseWith(ZOrderInput, order, 'order');
  checkPaidAtNotFuture(o.paid_at, now, 'order.paid_at');
  checkDeliveredAt(o.delivered_at, now);
  const recipient = o.buyer.recipient;
  return {
    externalId: o.external_id,
    number: o.number ?? o.external_id,
    createdAt: o.created_at,
    paidAt: o.paid_at,
    deliveredAt: o.delivered_at,
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
      jst: o.buyer.jst,
      vatGroup: o.buyer.vat_group,
      recipient: recipient && { nip: recipient.nip, name: recipient.name, address1: recipient.address_line1, address2: recipient.address_line2 },
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
      annex15: l.annex15,
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
    lines: r.lines.map((l) => ({
      ref: null,
      invoiceLineRef: null,
      name: l.name,
      sku: l.sku,
      quantity: l.quantity,
      unitPriceGrosze: l.unit_price,
      vatRate: l.vat_rate,
      ...(l.restocking_fee > 0 && { feeGrosze: l.restocking_fee }),
    })),
    shippingGrosze: r.shipping && r.shipping.price > 0 ? r.shipping.price : null,
    shippingRef: null,
  };
}
