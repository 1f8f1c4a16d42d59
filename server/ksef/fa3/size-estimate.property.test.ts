import { describe, expect, test } from 'vitest';
import { AppError } from '@/server/errors';
import { NBP_TABLE_A_CURRENCIES } from '@/server/orders/currencies';
import type { NormalizedBuyer, NormalizedLine, NormalizedOrder, NormalizedShipping } from '@/server/orders/types';
import { VAT_RATES } from '@/server/facts/vat-rates';
import { buildInvoiceXml } from './build-invoice';
import { invoiceSizeBound } from './size';
import { cleanText } from './xml';
import { invoiceSizeEstimate } from './size-estimate';

/** mulberry32: a seeded generator, so that a failing draw is the same draw on every run. */
function generator(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]!;
  return { next, int, pick };
}
type Gen = ReturnType<typeof generator>;

// escaping-heavy, multi-byte (2, 3 and 4 bytes), whitespace to collapse, and characters the sanitizer removes
const ALPHABET = ['a', 'Z', '7', ' ', '&', '<', '>', '"', "'", 'ż', 'Ł', '€', '\u{1D516}', '\t', '\n', '\u0001', '\u0085', '\uFDD0', '\uD800', '\u{10FFFF}'];

/** Texts as the intake stores them (cleaned), or raw as a stored order from before could hold them. */
let cleanTexts = false;
function text(g: Gen, max: number): string {
  const raw = drawText(g, max);
  return cleanTexts ? cleanText(raw, max) || 'x' : raw;
}
function drawText(g: Gen, max: number): string {
  const length = g.next() < 0.1 ? g.int(max - 20, max + 100) : g.int(1, 30);
  const kind = g.int(0, 3);
  // some texts all of one character: all ampersands is the widest text there is
  const one = g.pick(ALPHABET);
  return Array.from({ length: Math.max(1, length) }, () => (kind === 0 ? one : g.pick(ALPHABET))).join('');
}
const maybe = <T>(g: Gen, value: () => T): T | null => (g.next() < 0.5 ? value() : null);
const ref = (g: Gen) =>
  g.pick([null, 'WC-1-1', 'x'.repeat(50), 'x'.repeat(51), '&'.repeat(50), () => text(g, 50)].map((r) => (typeof r === 'function' ? r() : r)));

function line(g: Gen): NormalizedLine {
  const quantity = g.pick([1, 2, 3, 7, g.int(1, 1_000_000)]);
  const list = g.int(1, 10) <= 2 ? g.int(0, 100) : g.int(1, 100_000_000);
  const discountGrosze = g.next() < 0.5 ? 0 : g.int(0, list);
  return {
    ref: ref(g),
    name: text(g, 512),
    sku: maybe(g, () => text(g, 50)),
    quantity,
    unitPriceGrosze: Math.round(list / quantity),
    discountGrosze,
    grossGrosze: list - discountGrosze,
    vatRate: g.pick(VAT_RATES),
    annex15: g.next() < 0.3,
  };
}
const shipping = (g: Gen): NormalizedShipping => ({ ref: ref(g), name: text(g, 512), grossGrosze: g.int(1, 10_000_000), vatRate: g.pick(VAT_RATES) });

function buyer(g: Gen): NormalizedBuyer {
  const unit = g.int(0, 2);
  return {
    nip: '3861610227',
    name: text(g, 512),
    address1: text(g, 512),
    address2: maybe(g, () => text(g, 512)),
    countryCode: g.pick(['PL', 'DE']),
    email: maybe(g, () => `${text(g, 120)}@${text(g, 120)}`),
    customerNumber: maybe(g, () => text(g, 256)),
    jst: unit === 1,
    vatGroup: unit === 2,
    recipient: unit === 0 ? null : { nip: '5265877635', name: text(g, 512), address1: text(g, 512), address2: maybe(g, () => text(g, 512)) },
  };
}

function order(g: Gen, lines: number): NormalizedOrder {
  return {
    externalId: 'o',
    number: text(g, 256),
    createdAt: maybe(g, () => '2026-05-30T08:00:00.000Z'),
    paidAt: g.pick(['2026-06-01T10:00:00.000Z', '2049-12-31T22:59:59.000Z']),
    deliveredAt: maybe(g, () => g.pick(['2026-06-02', '2050-01-01'])),
    currency: g.next() < 0.5 ? 'PLN' : g.pick(NBP_TABLE_A_CURRENCIES),
    paymentMethod: g.pick(['card', 'transfer', 'cash', 'mobile'] as const),
    buyer: buyer(g),
    lines: Array.from({ length: lines }, () => line(g)),
    shipping: Array.from({ length: g.pick([0, 0, 1, 3]) }, () => shipping(g)),
  };
}

/** The document as one real seller, number and rate make it. */
function realSize(g: Gen, o: NormalizedOrder): number {
  const xml = refusedAsNull(() =>
    buildInvoiceXml({
      seller: { nip: '5265877635', name: text(g, 512), address1: text(g, 512), address2: maybe(g, () => text(g, 512)), cashAccounting: g.next() < 0.5 },
      order: o,
      number: `FV/2026/06/${g.int(1, 999_999)}`,
      documentId: `inv_${'a1B2'.repeat(7)}`,
      issueDate: '2026-06-03',
      exchangeRate: o.currency === 'PLN' ? undefined : { rate: '4.2322', date: '2026-05-29', table: '103/A/NBP/2026' },
      systemInfo: 'KSeF Relay',
      generatedAt: new Date('2026-06-03T12:00:00Z'),
    }),
  );
  return xml === null ? 0 : Buffer.byteLength(xml, 'utf8');
}

/** null when the builder refuses the order (the intake leaves that to the queue). */
function refusedAsNull<T>(build: () => T): T | null {
  try {
    return build();
  } catch (err) {
    if (err instanceof AppError) return null;
    throw err;
  }
}

describe('the intake size estimate is an upper bound of the built FA(3) document', () => {
  test.each([
    ['small orders, raw texts', 1, 400, [1, 2, 10, 30], false],
    ['small orders, cleaned texts', 2, 400, [1, 2, 10, 30], true],
    ['many lines, raw texts', 3, 4, [300, 1100], false],
    ['many lines, cleaned texts', 4, 4, [300, 1100], true],
  ] as const)('%s (seed %i)', (_, seed, draws, lineCounts, clean) => {
    const g = generator(seed);
    cleanTexts = clean;
    let built = 0;
    for (let i = 0; i < draws; i++) {
      const o = order(g, g.pick(lineCounts));
      const worst = refusedAsNull(() => invoiceSizeBound(o));
      if (worst === null) continue;
      built++;
      const estimate = invoiceSizeEstimate(o);
      expect(estimate, `draw ${i}`).toBeGreaterThanOrEqual(worst);
      expect(estimate, `draw ${i}`).toBeGreaterThanOrEqual(realSize(g, o));
      // close on cleaned texts: a row's bound overstates by its unit price's unused decimals and a long shop row id
      // (raw texts overstate by what cleaning removes)
      if (clean) expect(estimate - worst, `draw ${i}`).toBeLessThanOrEqual(200 + 20 * (o.lines.length + o.shipping.length));
    }
    expect(built).toBeGreaterThan(draws * 0.8);
  });
});
