/**
 * The emulated shop's catalogue and WooCommerce's order and refund objects (REST v3 view context), built with the
 * store's own arithmetic: prices entered gross, net and tax split per line and rounded to grosze, taxes per rate id.
 */

export type Meta = { id: number; key: string; value: unknown };
export type Note = { id: number; author: string; date_created: string; date_created_gmt: string; note: string; customer_note: boolean };

type Money = { total: string; total_tax: string; taxes: { id: number; total: string; subtotal: string }[] };
export type Line = Money & {
  id: number;
  name: string;
  product_id: number;
  quantity: number;
  sku: string;
  tax_class: string;
  subtotal: string;
  subtotal_tax: string;
  price: number;
  meta_data: Meta[];
};
export type ShippingLine = Money & { id: number; method_title: string; method_id: string; instance_id: string; meta_data: Meta[] };

export type Refund = {
  id: number;
  date_created: string;
  date_created_gmt: string;
  amount: string;
  reason: string;
  refunded_by: number;
  refunded_payment: boolean;
  meta_data: Meta[];
  line_items: (Omit<Line, 'meta_data'> & { meta_data: Meta[] })[];
  shipping_lines: ShippingLine[];
  tax_lines: TaxLine[];
  fee_lines: never[];
};

type TaxLine = {
  id: number;
  rate_code: string;
  rate_id: number;
  label: string;
  compound: boolean;
  tax_total: string;
  shipping_tax_total: string;
  rate_percent: number;
  meta_data: Meta[];
};

export type Order = {
  id: number;
  status: string;
  date_created_gmt: string;
  date_modified_gmt: string;
  date_paid_gmt: string | null;
  date_completed_gmt: string | null;
  payment_method: string;
  payment_method_title: string;
  billing: Record<string, string>;
  meta_data: Meta[];
  line_items: Line[];
  shipping_lines: ShippingLine[];
  refunds: Refund[];
  notes: Note[];
};

/** Tax rates of the shop: id → percent (WooCommerce → Settings → Tax, Polish standard and reduced rates). */
const RATES: Record<number, number> = { 1: 23, 2: 8, 3: 5 };

/** Products: id → name, SKU, gross price in grosze, tax rate id. */
export const CATALOGUE: Record<number, { name: string; sku: string; gross: number; rate: number }> = {
  301: { name: 'Ekspres ciśnieniowy Barista Pro 15 bar', sku: 'EXP-BP15', gross: 129_900, rate: 1 },
  305: { name: 'Dzbanek do spieniania mleka 600 ml', sku: 'DZB-600', gross: 5_999, rate: 1 },
  310: { name: 'Kawa ziarnista Arabica Brazylia 1 kg', sku: 'KAW-BR1', gross: 8_990, rate: 2 },
  320: { name: 'Poradnik baristy (książka)', sku: 'KS-BAR', gross: 4_900, rate: 3 },
};
export const SHIPPING_GROSS = 2_000;

const PAYMENT_TITLES: Record<string, string> = { bacs: 'Przelew bankowy', cod: 'Za pobraniem', przelewy24: 'Przelewy24', stripe: 'Karta płatnicza' };

const fmt = (grosze: number) => (grosze / 100).toFixed(2);
const parse = (text: string) => Math.round(Number(text) * 100);

/** WooCommerce with prices entered gross: net = round(gross / (1 + rate)), tax = gross − net, per line. */
function split(gross: number, rateId: number): Money {
  const net = Math.round((gross * 100) / (100 + RATES[rateId]!));
  const tax = gross - net;
  return { total: fmt(net), total_tax: fmt(tax), taxes: [{ id: rateId, total: fmt(tax), subtotal: fmt(tax) }] };
}

export const gmt = (at: Date) => at.toISOString().slice(0, 19);
/** Site-local form of a GMT string: the shop runs on Europe/Warsaw. */
export function local(gmtText: string | null): string | null {
  if (!gmtText) return null;
  const at = new Date(`${gmtText}Z`);
  const parts = new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Warsaw',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return parts.replace(' ', 'T');
}

export type NewOrder = {
  items?: { product: number; quantity: number }[];
  nip?: string | null;
  nipMetaKey?: string;
  paymentMethod?: string;
  company?: string;
  email?: string;
};

export function buildOrder(ids: () => number, at: Date, spec: NewOrder): Order {
  const id = ids();
  const items = spec.items?.length
    ? spec.items
    : [
        { product: 301, quantity: 1 },
        { product: 305, quantity: 2 },
      ];
  const line_items = items.map(({ product, quantity }): Line => {
    const p = CATALOGUE[product];
    if (!p) throw new Error(`no product ${product} in the catalogue (${Object.keys(CATALOGUE).join(', ')})`);
    const money = split(p.gross * quantity, p.rate);
    return {
      id: ids(),
      name: p.name,
      product_id: product,
      quantity,
      sku: p.sku,
      tax_class: p.rate === 1 ? '' : 'reduced-rate',
      subtotal: money.total,
      subtotal_tax: money.total_tax,
      price: Number(money.total) / quantity,
      meta_data: [],
      ...money,
    };
  });
  const shipping = split(SHIPPING_GROSS, 1);
  const shipping_lines: ShippingLine[] = [
    {
      id: ids(),
      method_title: 'Kurier DPD',
      method_id: 'flat_rate',
      instance_id: '3',
      meta_data: [],
      ...shipping,
      taxes: shipping.taxes.map((t) => ({ ...t, subtotal: '' })),
    },
  ];
  const meta_data: Meta[] = spec.nip ? [{ id: ids(), key: spec.nipMetaKey ?? '_billing_nip', value: spec.nip }] : [];
  const b2b = !!spec.nip;
  const method = spec.paymentMethod ?? 'przelewy24';
  return {
    id,
    status: 'pending',
    date_created_gmt: gmt(at),
    date_modified_gmt: gmt(at),
    date_paid_gmt: null,
    date_completed_gmt: null,
    payment_method: method,
    payment_method_title: PAYMENT_TITLES[method] ?? method,
    billing: {
      first_name: 'Anna',
      last_name: 'Kowalczyk',
      company: b2b ? (spec.company ?? 'Biuro Projektowe Kreska Sp. z o.o.') : '',
      address_1: 'ul. Piotrkowska 120',
      address_2: 'lok. 4',
      city: 'Łódź',
      state: '',
      postcode: '90-006',
      country: 'PL',
      email: spec.email ?? 'zakupy@kreska.example.pl',
      phone: '+48 501 234 567',
    },
    meta_data,
    line_items,
    shipping_lines,
    refunds: [],
    notes: [],
  };
}

const gross = (m: { total: string; total_tax: string }) => parse(m.total) + parse(m.total_tax);

function taxLines(lines: { taxes: Money['taxes'] }[], shipping: { taxes: Money['taxes'] }[], ids: (rateId: number) => number): TaxLine[] {
  const used = new Map<number, { items: number; shipping: number }>();
  for (const [list, key] of [
    [lines, 'items'],
    [shipping, 'shipping'],
  ] as const) {
    for (const l of list)
      for (const t of l.taxes) {
        const entry = used.get(t.id) ?? { items: 0, shipping: 0 };
        entry[key] += parse(t.total);
        used.set(t.id, entry);
      }
  }
  return [...used].map(([rateId, sum]) => ({
    id: ids(rateId),
    rate_code: `PL-VAT ${RATES[rateId]}%-1`,
    rate_id: rateId,
    label: `VAT ${RATES[rateId]}%`,
    compound: false,
    tax_total: fmt(sum.items),
    shipping_tax_total: fmt(sum.shipping),
    rate_percent: RATES[rateId]!,
    meta_data: [],
  }));
}

/** GET /orders/{id} as WooCommerce answers it (view context, dp 2). */
export function orderJson(o: Order, home: string): Record<string, unknown> {
  const items = o.line_items.reduce((s, l) => s + gross(l), 0);
  const ship = o.shipping_lines.reduce((s, l) => s + gross(l), 0);
  const tax = [...o.line_items, ...o.shipping_lines].reduce((s, l) => s + parse(l.total_tax), 0);
  const base = `${home}wp-json/wc/v3/orders`;
  return {
    id: o.id,
    parent_id: 0,
    status: o.status,
    currency: 'PLN',
    version: '10.2.0',
    prices_include_tax: true,
    date_created: local(o.date_created_gmt),
    date_modified: local(o.date_modified_gmt),
    discount_total: '0.00',
    discount_tax: '0.00',
    shipping_total: fmt(o.shipping_lines.reduce((s, l) => s + parse(l.total), 0)),
    shipping_tax: fmt(o.shipping_lines.reduce((s, l) => s + parse(l.total_tax), 0)),
    cart_tax: fmt(o.line_items.reduce((s, l) => s + parse(l.total_tax), 0)),
    total: fmt(items + ship),
    total_tax: fmt(tax),
    customer_id: 0,
    order_key: `wc_order_${o.id.toString(36)}`,
    billing: o.billing,
    shipping: { ...o.billing, email: undefined },
    payment_method: o.payment_method,
    payment_method_title: o.payment_method_title,
    transaction_id: '',
    customer_ip_address: '127.0.0.1',
    customer_user_agent: 'emulator',
    created_via: 'checkout',
    customer_note: '',
    date_completed: local(o.date_completed_gmt),
    date_paid: local(o.date_paid_gmt),
    cart_hash: '',
    number: String(o.id),
    meta_data: o.meta_data,
    line_items: o.line_items.map((l) => ({ ...l, image: { id: 0, src: '' }, parent_name: null })),
    tax_lines: taxLines(o.line_items, o.shipping_lines, (rateId) => o.id * 10 + rateId),
    shipping_lines: o.shipping_lines,
    fee_lines: [],
    coupon_lines: [],
    refunds: o.refunds.map((r) => ({ id: r.id, reason: r.reason, total: `-${r.amount}` })),
    payment_url: `${home}checkout/order-pay/${o.id}/`,
    is_editable: o.status === 'pending',
    needs_payment: o.status === 'pending',
    needs_processing: true,
    date_created_gmt: o.date_created_gmt,
    date_modified_gmt: o.date_modified_gmt,
    date_completed_gmt: o.date_completed_gmt,
    date_paid_gmt: o.date_paid_gmt,
    currency_symbol: 'zł',
    _links: { self: [{ href: `${base}/${o.id}` }], collection: [{ href: base }] },
  };
}

export function refundJson(o: Order, r: Refund, home: string): Record<string, unknown> {
  const base = `${home}wp-json/wc/v3/orders/${o.id}`;
  return {
    ...r,
    date_created: local(r.date_created_gmt),
    _links: { self: [{ href: `${base}/refunds/${r.id}` }], collection: [{ href: `${base}/refunds` }], up: [{ href: base }] },
  };
}

export type RefundSpec = { items?: { line: number; quantity: number }[]; shipping?: boolean; reason?: string };

/** A refund of order lines (negative quantities and amounts, `_refunded_item_id` meta), as wp-admin makes one. */
export function buildRefund(ids: () => number, at: Date, o: Order, spec: RefundSpec): Refund {
  const id = ids();
  const line_items = (spec.items ?? []).map(({ line, quantity }) => {
    const original = o.line_items.find((l) => l.id === line);
    if (!original) throw new Error(`order ${o.id} has no line ${line}`);
    if (quantity < 1 || quantity > original.quantity) throw new Error(`line ${line}: refund quantity must be 1…${original.quantity}`);
    const unitGross = gross(original) / original.quantity;
    const money = split(Math.round(unitGross * quantity), original.taxes[0]!.id);
    const neg = (t: string) => fmt(-parse(t));
    return {
      ...original,
      id: ids(),
      quantity: -quantity,
      subtotal: neg(money.total),
      subtotal_tax: neg(money.total_tax),
      total: neg(money.total),
      total_tax: neg(money.total_tax),
      taxes: money.taxes.map((t) => ({ id: t.id, total: neg(t.total), subtotal: neg(t.total) })),
      price: Number(money.total) / quantity,
      meta_data: [{ id: ids(), key: '_refunded_item_id', value: String(line) }],
    };
  });
  const shipping_lines = spec.shipping
    ? o.shipping_lines.map((s) => ({
        ...s,
        id: ids(),
        total: fmt(-parse(s.total)),
        total_tax: fmt(-parse(s.total_tax)),
        taxes: s.taxes.map((t) => ({ ...t, total: fmt(-parse(t.total)) })),
        meta_data: [{ id: ids(), key: '_refunded_item_id', value: String(s.id) }],
      }))
    : [];
  const amount = -[...line_items, ...shipping_lines].reduce((s, l) => s + gross(l), 0);
  if (amount <= 0) throw new Error('a refund needs items or shipping');
  return {
    id,
    date_created: local(gmt(at))!,
    date_created_gmt: gmt(at),
    amount: fmt(amount),
    reason: spec.reason ?? '',
    refunded_by: 1,
    refunded_payment: true,
    meta_data: [],
    line_items,
    shipping_lines,
    tax_lines: taxLines(line_items, shipping_lines, () => ids()),
    fee_lines: [],
  };
}
