import { readFileSync } from 'node:fs';
import path from 'node:path';
import { formatGrosze, parseGrosze } from '../money';

/**
 * Test support: WooCommerce payloads. The two fixtures of /work/shared/domain/fixtures are read at test time;
 * `wcOrder` builds further realistic orders with internally consistent net/tax splits, as WooCommerce stores them.
 */
export const FIXTURES_DIR = path.resolve(process.cwd(), '../shared/domain/fixtures');
export const readFixture = (name: string): string => readFileSync(path.join(FIXTURES_DIR, name), 'utf8');
export const fixtureOrder4817 = (): Record<string, unknown> => JSON.parse(readFixture('wc-order-4817-pln.json')) as Record<string, unknown>;
export const fixtureRefund4822 = (): Record<string, unknown> => JSON.parse(readFixture('wc-refund-4822-of-order-4817.json')) as Record<string, unknown>;

/** Tax rate ids of the test shop: 1 standard 23 %, 2 reduced 8 %, 3 books 5 %, 4 zero-rate 0 %. */
export const RATE_IDS = { 23: 1, 8: 2, 5: 3, 0: 4 } as const;
type Rate = keyof typeof RATE_IDS;

/** WooCommerce's split of a gross amount into net `total` and `total_tax`, rounded per line. */
function split(grossGrosze: number, rate: Rate): { total: string; total_tax: string; taxes: { id: number; total: string; subtotal: string }[] } {
  const net = Math.round((grossGrosze * 100) / (100 + rate));
  const tax = grossGrosze - net;
  return { total: formatGrosze(net), total_tax: formatGrosze(tax), taxes: [{ id: RATE_IDS[rate], total: formatGrosze(tax), subtotal: formatGrosze(tax) }] };
}

export type ItemSpec = { id: number; name: string; sku?: string | null; quantity: number; grossGrosze: number; rate: Rate; beforeCouponGrosze?: number };

export function lineItem(spec: ItemSpec) {
  const after = split(spec.grossGrosze, spec.rate);
  const before = split(spec.beforeCouponGrosze ?? spec.grossGrosze, spec.rate);
  return {
    id: spec.id, name: spec.name, product_id: spec.id + 100, variation_id: 0, quantity: spec.quantity, tax_class: spec.rate === 23 ? '' : 'reduced-rate',
    subtotal: before.total, subtotal_tax: before.total_tax, total: after.total, total_tax: after.total_tax,
    taxes: after.taxes.map((t, i) => ({ ...t, subtotal: before.taxes[i]?.total ?? t.subtotal })),
    meta_data: [], sku: spec.sku ?? null, price: 0, image: { id: 0, src: '' }, parent_name: null,
  };
}

export function shippingLine(id: number, title: string, grossGrosze: number, rate: Rate = 23) {
  const s = split(grossGrosze, rate);
  return { id, method_title: title, method_id: grossGrosze === 0 ? 'free_shipping' : 'flat_rate', instance_id: '1', ...s, taxes: grossGrosze === 0 ? [] : s.taxes, meta_data: [] };
}

export function feeLine(id: number, name: string, grossGrosze: number, rate: Rate = 23) {
  return { id, name, tax_class: '', tax_status: 'taxable', ...split(grossGrosze, rate), meta_data: [] };
}

const taxLine = (rate: Rate) => ({ id: 900 + RATE_IDS[rate], rate_code: `PL-VAT ${rate}%-1`, rate_id: RATE_IDS[rate], label: `VAT ${rate}%`, compound: false, tax_total: '0.00', shipping_tax_total: '0.00', rate_percent: rate, meta_data: [] });

const gross = (x: { total: string; total_tax: string }) => (parseGrosze(x.total) ?? 0) + (parseGrosze(x.total_tax) ?? 0);

/** A paid (completed, bank transfer) B2B order of the test shop; `over` replaces top-level fields. */
export function wcOrder(id: number, items: ItemSpec[], over: Record<string, unknown> = {}): Record<string, unknown> {
  const line_items = items.map(lineItem);
  const shipping_lines = (over.shipping_lines as { total: string; total_tax: string }[] | undefined) ?? [shippingLine(id * 10 + 9, 'Kurier InPost', 1_599)];
  const fee_lines = (over.fee_lines as { total: string; total_tax: string }[] | undefined) ?? [];
  const total = [...line_items, ...shipping_lines, ...fee_lines].reduce((s, l) => s + gross(l), 0);
  return {
    id, parent_id: 0, number: String(id), status: 'completed', currency: 'PLN', prices_include_tax: true,
    date_created: '2026-06-03T10:12:00', date_created_gmt: '2026-06-03T08:12:00', date_paid: '2026-06-03T10:14:30', date_paid_gmt: '2026-06-03T08:14:30',
    total: formatGrosze(total), total_tax: '0.00', customer_id: 0,
    billing: { first_name: 'Jan', last_name: 'Nowak', company: 'Pracownia Nowak', address_1: 'ul. Długa 5', address_2: '', city: 'Kraków', state: '', postcode: '31-147', country: 'PL', email: 'jan@nowak.example.pl', phone: '' },
    payment_method: 'bacs', payment_method_title: 'Przelew bankowy',
    meta_data: [{ id: 1, key: '_billing_nip', value: '1234563218' }],
    line_items, shipping_lines, fee_lines, coupon_lines: [], refunds: [],
    tax_lines: ([23, 8, 5, 0] as const).map(taxLine),
    ...over,
  };
}

/** The EUR order of fixture fa3-vat-eur-order-4830.xml, as the shop would have sent it. */
export function wcOrder4830Eur(): Record<string, unknown> {
  return wcOrder(4830, [
    { id: 2001, name: 'Młynek żarnowy GrindMaster 64', sku: 'MLN-GM64', quantity: 2, grossGrosze: 49_800, rate: 23 },
    { id: 2002, name: 'Kawa ziarnista Arabica Brazylia 1 kg', sku: 'KAW-ARB-1KG', quantity: 5, grossGrosze: 10_750, rate: 8 },
  ], {
    currency: 'EUR', payment_method: 'stripe', payment_method_title: 'Karta płatnicza',
    date_created_gmt: '2026-06-01T07:02:11', date_paid_gmt: '2026-06-01T07:03:40',
    shipping_lines: [shippingLine(2003, 'Kurier DPD', 1_500)],
    billing: { first_name: 'Anna', last_name: 'Kowalczyk', company: 'Biuro Projektowe Kreska Sp. z o.o.', address_1: 'ul. Piotrkowska 120', address_2: 'lok. 4', city: 'Łódź', state: '', postcode: '90-006', country: 'PL', email: '', phone: '' },
    meta_data: [{ id: 7, key: '_billing_nip', value: '3861610227' }],
  });
}
