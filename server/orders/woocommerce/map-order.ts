import { AppError } from '@/server/errors';
import { isSupportedCurrency } from '@/server/orders/currencies';
import { toAppError } from '@/server/orders/input-errors';
import { checkPaidAtNotFuture } from '@/server/orders/order-schema';
import { cleanText } from '@/server/orders/text';
import { formatGrosze } from '@/server/orders/money';
import { isValidNip, normalizeNip } from '@/server/orders/nip';
import type { NormalizedLine, NormalizedOrder, NormalizedShipping, PaymentMethod } from '@/server/orders/types';
import { MAX_BUCKET_GROSZE } from '@/server/orders/vat';
import { decodeEntities, gmtToIso, metaText, resolveRate, wcGrosze } from './wc-values';
import { type WcOrder, ZWcOrder } from './wc-schema';

const ROOT = 'shopplatform_order';

/** Meta keys that hold the buyer NIP in common Polish and EU-VAT plugins, first non-empty wins (woocommerce.md §4). */
export const DEFAULT_NIP_META_KEYS = [
  '_billing_nip',
  'billing_nip',
  '_nip',
  'nip',
  '_billing_vat_number',
  'vat_number',
  '_vat_number',
  '_billing_eu_vat_number',
  '_billing_vat',
] as const;
/** Block-checkout additional fields: `_wc_billing/<namespace>/nip`, `_wc_other/<namespace>/nip`. */
const BLOCK_CHECKOUT_NIP = /^_wc_(billing|other)\/.+\/nip$/i;
/** Billing fields some plugins add to the REST billing object. */
const BILLING_NIP_FIELDS = ['nip', 'vat_number', 'vat'] as const;

/** Gateway id → payment method (fa3-mapping.md §12); unknown gateways count as card, the spec's default. */
export const DEFAULT_PAYMENT_METHODS: Readonly<Record<string, PaymentMethod>> = {
  bacs: 'transfer',
  cheque: 'transfer',
  cod: 'cash',
  przelewy24: 'transfer',
  payu: 'transfer',
  tpay: 'transfer',
  paynow: 'transfer',
  stripe: 'card',
  woocommerce_payments: 'card',
  stripe_cc: 'card',
  blik: 'mobile',
  przelewy24_blik: 'mobile',
  apple_pay: 'mobile',
  google_pay: 'mobile',
};

/** Line-item meta keys marking goods of annex 15 to the VAT act (value yes, 1 or true). */
export const ANNEX15_META_KEYS = ['_ksef_annex15', 'ksef_annex15'] as const;

export type ShopplatformOptions = {
  nipMetaKeys?: readonly string[];
  paymentMethods?: Readonly<Record<string, PaymentMethod>>;
  /** the intake time: a date_paid after it (beyond clock skew) is not a payment yet */
  now?: Date;
};

const PAID = new Set(['processing', 'completed']);
const CANCELLED = new Set(['cancelled', 'refunded', 'failed', 'trash']);

function checkPaid(o: WcOrder): string {
  if (CANCELLED.has(o.status)) throw new AppError('order_cancelled', `${ROOT}.status`, `the order is ${o.status}`);
  if (!PAID.has(o.status)) throw new AppError('order_not_paid', `${ROOT}.status`, `status ${o.status} is not a paid status (processing or completed)`);
  // WooCommerce stamps date_paid when cash on delivery reaches processing, before any money moved (woocommerce.md §5)
  if (o.payment_method === 'cod' && o.status !== 'completed')
    throw new AppError('order_not_paid', `${ROOT}.status`, 'cash on delivery is paid once the order is completed');
  if (!o.date_paid_gmt) throw new AppError('order_not_paid', `${ROOT}.date_paid_gmt`, 'the order has no date_paid');
  return gmtToIso(o.date_paid_gmt, `${ROOT}.date_paid_gmt`);
}

function findNip(o: WcOrder, keys: readonly string[]): { nip: string; param: string } {
  for (const key of keys) {
    const nip = metaText(o.meta_data, key);
    if (nip) return { nip, param: `${ROOT}.meta_data[${o.meta_data.findIndex((m) => m.key === key)}].value` };
  }
  const blockIndex = o.meta_data.findIndex((m) => BLOCK_CHECKOUT_NIP.test(m.key) && metaText([m], m.key));
  const block = o.meta_data[blockIndex];
  if (block) return { nip: metaText([block], block.key) ?? '', param: `${ROOT}.meta_data[${blockIndex}].value` };
  for (const field of BILLING_NIP_FIELDS) {
    const value = o.billing[field];
    if (typeof value === 'string' && value.trim()) return { nip: value, param: `${ROOT}.billing.${field}` };
  }
  throw new AppError('buyer_nip_missing', `${ROOT}.meta_data`, `no buyer NIP in meta keys ${keys.join(', ')} or the billing VAT fields`);
}

/** Shop text as the invoice prints it: the FA(3) sanitizer, at most `max` characters. */
const truncate = (text: string, max: number) => cleanText(text, max);
const isAnnex15 = (meta: Parameters<typeof metaText>[0]) => ANNEX15_META_KEYS.some((key) => /^(yes|1|true)$/i.test(metaText(meta, key) ?? ''));

function mapLines(o: WcOrder): NormalizedLine[] {
  const products = o.line_items.map((item, i): NormalizedLine => {
    const at = `${ROOT}.line_items[${i}]`;
    if (item.quantity <= 0) throw new AppError('parameter_invalid', `${at}.quantity`, `${at}.quantity must be positive`);
    const gross = wcGrosze(item.total, `${at}.total`) + wcGrosze(item.total_tax, `${at}.total_tax`);
    if (gross < 0) throw new AppError('order_unprocessable', `${at}.total`, `${at}: a line with a negative value`);
    const before = item.subtotal ? wcGrosze(item.subtotal, `${at}.subtotal`) + wcGrosze(item.subtotal_tax ?? '0', `${at}.subtotal_tax`) : gross;
    // coupons are already spread into total; subtotal is the value before them (woocommerce.md §3). A list value
    // that does not divide by the quantity keeps its exact unit price on the invoice (P_9B, build-invoice.ts)
    const list = Math.max(before, gross);
    const unit = Math.round(list / item.quantity);
    const sku = item.sku?.trim();
    return {
      ref: `WC-${o.id}-${item.id}`,
      name: truncate(decodeEntities(item.name).trim(), 512),
      sku: sku && sku.length <= 50 ? sku : null,
      quantity: item.quantity,
      unitPriceGrosze: unit,
      discountGrosze: list - gross,
      grossGrosze: gross,
      vatRate: resolveRate(item.taxes, o.tax_lines, `${at}.taxes`),
      annex15: isAnnex15(item.meta_data),
    };
  });
  const fees = o.fee_lines.flatMap((fee, i): NormalizedLine[] => {
    const at = `${ROOT}.fee_lines[${i}]`;
    const gross = wcGrosze(fee.total, `${at}.total`) + wcGrosze(fee.total_tax, `${at}.total_tax`);
    if (gross < 0)
      throw new AppError('order_unprocessable', `${at}.total`, `negative fee "${fee.name}" (${formatGrosze(gross)}): give the discount as a coupon`);
    if (gross === 0) return [];
    return [
      {
        ref: `WC-${o.id}-${fee.id}`,
        name: truncate(decodeEntities(fee.name).trim(), 512),
        sku: null,
        quantity: 1,
        unitPriceGrosze: gross,
        discountGrosze: 0,
        grossGrosze: gross,
        vatRate: resolveRate(fee.taxes, o.tax_lines, `${at}.taxes`),
        annex15: false,
      },
    ];
  });
  return [...products, ...fees];
}

function mapShipping(o: WcOrder): NormalizedShipping[] {
  return o.shipping_lines.flatMap((line, i): NormalizedShipping[] => {
    const at = `${ROOT}.shipping_lines[${i}]`;
    const gross = wcGrosze(line.total, `${at}.total`) + wcGrosze(line.total_tax, `${at}.total_tax`);
    if (gross < 0) throw new AppError('order_unprocessable', `${at}.total`, `${at}: negative shipping`);
    if (gross === 0) return []; // free shipping is not a row (fa3-mapping.md §11)
    const name = truncate(`Dostawa - ${decodeEntities(line.method_title).trim()}`, 512);
    return [{ ref: `WC-${o.id}-${line.id}`, name, grossGrosze: gross, vatRate: resolveRate(line.taxes, o.tax_lines, `${at}.taxes`) }];
  });
}

/**
 * A WooCommerce REST v3 order (body key `shopplatform_order`) → NormalizedOrder, or AppError with `param`
 * under `shopplatform_order.`. Checks in order: shape, status and payment, currency, NIP, buyer, items, total.
 */
export function mapShopplatformOrder(wcOrder: unknown, options: ShopplatformOptions = {}): NormalizedOrder {
  const parsed = ZWcOrder.safeParse(wcOrder);
  if (!parsed.success) throw toAppError(parsed.error, wcOrder, ROOT);
  const o = parsed.data;
  const paidAt = checkPaid(o);
  checkPaidAtNotFuture(paidAt, options.now ?? new Date(), `${ROOT}.date_paid_gmt`);
  const currency = o.currency.trim().toUpperCase();
  if (!isSupportedCurrency(currency)) throw new AppError('currency_not_supported', `${ROOT}.currency`, `${currency} is not PLN or a currency of NBP table A`);

  const found = findNip(o, options.nipMetaKeys ?? DEFAULT_NIP_META_KEYS);
  const nip = normalizeNip(found.nip);
  if (!isValidNip(nip)) throw new AppError('buyer_nip_invalid', found.param, `"${found.nip}" is not a valid Polish NIP`);

  const b = o.billing;
  const name = b.company.trim() || `${b.first_name} ${b.last_name}`.trim();
  if (!name) throw new AppError('parameter_missing', `${ROOT}.billing.company`, 'the buyer has no company or person name');
  const address1 = `${b.address_1.trim()} ${b.address_2.trim()}`.trim();
  if (!address1) throw new AppError('parameter_missing', `${ROOT}.billing.address_1`, 'the buyer has no street address');
  const address2 = `${b.postcode.trim()} ${b.city.trim()}`.trim();
  const email = b.email.trim();

  const lines = mapLines(o);
  if (lines.length === 0) throw new AppError('order_unprocessable', `${ROOT}.line_items`, 'the order has no items');
  const shipping = mapShipping(o);
  const gross = [...lines, ...shipping].reduce((s, l) => s + l.grossGrosze, 0);
  if (gross <= 0) throw new AppError('order_unprocessable', `${ROOT}.total`, 'the order total must be above zero');
  if (gross > MAX_BUCKET_GROSZE) throw new AppError('order_unprocessable', `${ROOT}.total`, 'the order total is too large');
  const total = wcGrosze(o.total, `${ROOT}.total`);
  if (gross !== total)
    throw new AppError('order_unprocessable', `${ROOT}.total`, `items add up to ${formatGrosze(gross)}, the order total is ${formatGrosze(total)}`);

  return {
    externalId: String(o.id),
    number: String(o.number ?? o.id).trim() || String(o.id),
    createdAt: o.date_created_gmt ? gmtToIso(o.date_created_gmt, `${ROOT}.date_created_gmt`) : null,
    paidAt,
    deliveredAt: null,
    currency,
    paymentMethod: (options.paymentMethods ?? DEFAULT_PAYMENT_METHODS)[o.payment_method ?? ''] ?? 'card',
    buyer: {
      nip,
      name: truncate(decodeEntities(name), 512),
      address1: truncate(address1, 512),
      address2: address2 ? truncate(address2, 512) : null,
      countryCode: /^[A-Z]{2}$/.test(b.country.trim()) ? b.country.trim() : 'PL',
      email: /^.+@.+$/.test(email) && email.length <= 255 ? email : null,
      customerNumber: o.customer_id ? String(o.customer_id) : null,
      jst: false,
      vatGroup: false,
      recipient: null,
    },
    lines,
    shipping,
  };
}
