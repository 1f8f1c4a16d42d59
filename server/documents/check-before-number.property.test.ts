import { describe, expect, test } from 'vitest';
import { checkSeller, type SellerColumns } from '@/server/accounts/seller-data';
import { AppError } from '@/server/errors';
import { buildFa3Document, type Fa3Document } from '@/server/ksef/fa3/build-document';
import { invoiceAnnotations } from '@/server/ksef/fa3/build-invoice';
import type { ExchangeRate } from '@/server/ksef/fa3/exchange-rate';
import { podmiot1, type Seller } from '@/server/ksef/fa3/parts';
import { formatKsefNumber } from '@/server/ksef/ksef-number';
import { validateXml } from '@/server/ksef/xsd';
import type { NormalizedLine, NormalizedOrder, NormalizedRefund } from '@/server/orders/types';
import { VAT_RATES } from '@/server/facts/vat-rates';
import { normalizedOrder } from '@/test/fixtures/normalized-order';
import { prng, type Rng } from '@/test/prng';
import { checkBeforeNumber } from './check-before-number';
import { formatNumber, periodOf } from './numbering';

/**
 * DESIGN invariant 9 as a property: over random orders, refunds and seller data (invalid ones included), the checks
 * document_prepare makes before it takes a number (checkSeller, then checkBeforeNumber) agree with what the send
 * step does with the real number. A document they pass builds and passes the official FA(3) XSD with any number the
 * counter can give (1 … 2^31 − 1), any generation time and, for a correction, any accepted original; one whose real
 * build or schema check would fail is refused before numbering.
 */
const CASES = 400;
const SEED = 0x31_2026;

const VALID_NIPS = ['5260250274', '3861610227', '5265877635', '7010002139'];
const BAD_NIPS = ['7010002137', '526025027', '0000000000', '52602502741', 'PL5260250275', ''];
// texts a person or a shop might send: plain, Polish, markup, astral, forbidden-only, blank, over 512 characters
const TEXTS = [
  'Sklep Testowy sp. z o.o.',
  'Zażółć gęślą jaźń',
  'A & B <Hurt> "Ola"',
  '𝔖𝔨𝔩𝔢𝔭 🛒',
  '\u0001\u0002\uFFFE',
  '   ',
  'x'.repeat(600),
  'ul. Długa 5\u0000',
];

function randomSeller(rng: Rng): SellerColumns {
  const valid = rng.next() < 0.75;
  const text = (good: string) => (valid || rng.next() < 0.6 ? good : rng.pick(TEXTS));
  return {
    sellerNip: valid || rng.next() < 0.4 ? rng.pick([...VALID_NIPS, 'PL 526-025-02-74']) : rng.pick(BAD_NIPS),
    sellerName: !valid && rng.next() < 0.1 ? null : text(rng.pick(TEXTS.slice(0, 4))),
    sellerAddress1: text('ul. Prosta 1'),
    sellerAddress2: rng.next() < 0.3 ? null : text('00-001 Warszawa'),
    cashAccounting: rng.next() < 0.2,
  };
}

function randomOrder(rng: Rng): NormalizedOrder {
  const lines = Array.from({ length: rng.int(1, 5) }, (_, i): NormalizedLine => {
    const quantity = rng.int(1, 9);
    const unitPriceGrosze = rng.next() < 0.03 ? 0 : rng.int(1, 2_000_000);
    const discountGrosze = rng.next() < 0.3 ? rng.int(0, quantity * unitPriceGrosze) : 0;
    const off = rng.next() < 0.02 ? 1 : 0; // a line whose value does not add up
    return {
      ref: rng.next() < 0.5 ? `L${i}` : rng.next() < 0.5 ? null : rng.pick(TEXTS),
      name: rng.next() < 0.93 ? `Towar ${i}` : rng.pick(TEXTS),
      sku: rng.next() < 0.5 ? null : rng.pick(['KUB-1', ...TEXTS]),
      quantity,
      unitPriceGrosze,
      discountGrosze,
      grossGrosze: quantity * unitPriceGrosze - discountGrosze + off,
      vatRate: rng.pick(VAT_RATES),
      annex15: rng.next() < 0.1,
    };
  });
  const shipping =
    rng.next() < 0.5 ? [{ ref: null, name: rng.next() < 0.9 ? 'Kurier' : rng.pick(TEXTS), grossGrosze: rng.int(1, 5_000), vatRate: rng.pick(VAT_RATES) }] : [];
  const base = normalizedOrder({ lines, shipping });
  const jst = rng.next() < 0.1;
  return {
    ...base,
    number: rng.next() < 0.95 ? String(rng.int(1, 99_999)) : rng.pick(TEXTS),
    currency: rng.next() < 0.7 ? 'PLN' : rng.pick(['EUR', 'USD', 'CHF'] as const),
    deliveredAt: rng.next() < 0.3 ? `2026-0${rng.int(1, 9)}-1${rng.int(0, 9)}` : null,
    buyer: {
      ...base.buyer,
      nip: rng.next() < 0.95 ? rng.pick(VALID_NIPS) : rng.pick(BAD_NIPS),
      name: rng.next() < 0.93 ? base.buyer.name : rng.pick(TEXTS),
      email: rng.next() < 0.5 ? null : rng.pick(['kupiec@example.test', 'no-at-sign', `${'e'.repeat(300)}@example.test`]),
      jst,
      recipient: jst && rng.next() < 0.8 ? { nip: rng.pick(VALID_NIPS), name: 'Szkoła nr 1', address1: 'ul. Szkolna 1', address2: null } : null,
    },
  };
}

/** NBP table A rates as stored (up to 6 decimals), now and then one the builder refuses. */
const randomRate = (rng: Rng): ExchangeRate => ({
  rate: rng.next() < 0.95 ? `${rng.int(0, 9)}.${String(rng.int(1, 999_999)).padStart(4, '0')}` : rng.pick(['0', '4,2322', '1234567.1']),
  date: '2026-05-29',
  table: `${rng.int(1, 250)}/A/NBP/2026`,
});

/** A refund of some of the order's lines at their invoiced price, sometimes more than was bought. */
function randomRefund(rng: Rng, order: NormalizedOrder): NormalizedRefund {
  const lines = order.lines.flatMap((l) =>
    rng.next() < 0.5
      ? []
      : [
          {
            ref: null,
            invoiceLineRef: l.ref,
            name: l.name,
            sku: l.sku,
            quantity: rng.int(1, l.quantity + (rng.next() < 0.1 ? 3 : 0)),
            unitPriceGrosze: l.unitPriceGrosze,
            vatRate: l.vatRate,
          },
        ],
  );
  const shippingGrosze = order.shipping.length > 0 && (lines.length === 0 || rng.next() < 0.3) ? order.shipping[0]!.grossGrosze : null;
  return { externalId: 'r', reason: rng.next() < 0.8 ? null : rng.pick(TEXTS), createdAt: null, lines, shippingGrosze, shippingRef: null };
}

const randomDate = (rng: Rng, from: number, to: number) =>
  `${rng.int(from, to)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;

/** The build and schema check of the send step, with a real number: the outcome the pre-number checks must predict. */
function sendsCleanly(build: () => string): boolean {
  let xml: string;
  try {
    xml = build();
  } catch (err) {
    if (err instanceof AppError) return false;
    throw err;
  }
  return validateXml(xml, 'fa3').ok;
}

describe(`${CASES} random documents, seed ${SEED}`, () => {
  test('the checks before numbering pass exactly the documents that build and pass the XSD with any real number', () => {
    const rng = prng(SEED);
    const seen = { sellerRefused: 0, refused: 0, numbered: 0, corrections: 0 };
    for (let i = 0; i < CASES; i++) {
      const columns = randomSeller(rng);
      const order = randomOrder(rng);
      const exchangeRate = order.currency === 'PLN' ? null : randomRate(rng);
      const issueDate = rng.next() < 0.97 ? randomDate(rng, 2027, 2049) : rng.pick(['2050-01-02', '2051-06-30']);
      const documentId = `inv_${i.toString(36).padStart(22, 'x')}`;
      const now = new Date(Date.UTC(2026, rng.int(0, 11), rng.int(1, 28), rng.int(0, 23)));
      const label = `case ${i}`;

      const seller = checkSeller(columns);
      if (!seller.ok) {
        seen.sellerRefused++;
        continue; // document_prepare skips it with seller_not_configured before numbering
      }
      expect(() => podmiot1(seller.seller), `${label}: the seller checkSeller passed`).not.toThrow();

      const correction = rng.next() < 0.35;
      const refund = correction ? randomRefund(rng, order) : null;
      // the original was issued by this service (2026 on) before its correction, and accepted by KSeF that day
      const original = { order, documentId: `inv_orig${i}`, issueDate: randomDate(rng, 2026, Number(issueDate.slice(0, 4)) - 1) };
      const before = refund
        ? checkBeforeNumber({
            kind: 'correction',
            seller: seller.seller,
            documentId,
            issueDate,
            now,
            original: { ...original, number: null, issueDate: null, ksefNumber: null, exchangeRate: null, fa3Xml: null },
            earlierRefunds: [],
            refund,
          })
        : checkBeforeNumber({ kind: 'invoice', seller: seller.seller, documentId, issueDate, now, order, exchangeRate });
      if (before) seen.refused++;
      else seen.numbered++;
      if (refund) seen.corrections++;

      for (const n of [1, rng.int(2, 9_999), rng.int(10_000, 2 ** 31 - 1), 2 ** 31 - 1]) {
        const generatedAt = new Date(now.getTime() + rng.int(0, 90) * 86_400_000);
        const real = refund
          ? sendsCleanly(() => buildFa3Document(correctionAt(seller.seller, original, refund, rng, documentId, issueDate, n, generatedAt)))
          : sendsCleanly(() =>
              buildFa3Document({
                kind: 'invoice',
                seller: seller.seller,
                order,
                number: formatNumber('FV', periodOf(issueDate), n),
                documentId,
                issueDate,
                exchangeRate,
                generatedAt,
              }),
            );
        expect(real, `${label}, number ${n}: ${before ? `refused (${before.message.slice(0, 200)})` : 'passed'} before numbering`).toBe(before === null);
      }
    }
    // every outcome is exercised, so neither direction of the claim holds vacuously
    expect(seen).toEqual({ sellerRefused: 66, refused: 98, numbered: 236, corrections: 116 });
  });
});

/** The KOR as the send step builds it once the original is accepted: its real number, KSeF number and rate. */
function correctionAt(
  seller: Seller,
  original: { order: NormalizedOrder; documentId: string; issueDate: string },
  refund: NormalizedRefund,
  rng: Rng,
  documentId: string,
  issueDate: string,
  n: number,
  generatedAt: Date,
): Fa3Document {
  const technical = Array.from({ length: 12 }, () => rng.pick([...'0123456789ABCDEF'])).join('');
  return {
    kind: 'correction',
    seller,
    original: {
      order: original.order,
      number: formatNumber('FV', periodOf(original.issueDate), rng.int(1, 2 ** 31 - 1)),
      issueDate: original.issueDate,
      ksefNumber: formatKsefNumber(seller.nip, original.issueDate.replaceAll('-', ''), technical),
      exchangeRate:
        original.order.currency === 'PLN' ? undefined : { rate: `${rng.int(1, 9)}.${rng.int(1000, 9999)}`, date: '2026-05-29', table: '101/A/NBP/2026' },
      annotations: invoiceAnnotations(seller, original.order, null),
      documentId: original.documentId,
    },
    earlierRefunds: [],
    refund,
    number: formatNumber('KOR', periodOf(issueDate), n),
    documentId,
    issueDate,
    generatedAt,
  };
}
