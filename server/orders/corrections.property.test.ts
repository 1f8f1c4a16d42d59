import { describe, expect, test } from 'vitest';
import { AppError } from '@/server/errors';
import { buildCorrectionXml } from '@/server/ksef/fa3/build-correction';
import { validateXml } from '@/server/ksef/xsd';
import { VAT_RATES } from '@/server/facts/vat-rates';
import { normalizedOrder } from '@/test/fixtures/normalized-order';
import { prng, type Rng } from '@/test/prng';
import type { NormalizedLine, NormalizedOrder, NormalizedRefund } from './types';
import { computeCorrection, computeTotals, type CorrectionTotals, rowDelta } from './totals';

function randomOrder(rng: Rng): NormalizedOrder {
  const lines = Array.from({ length: rng.int(1, 6) }, (_, i): NormalizedLine => {
    const quantity = rng.int(1, 7);
    const unitPriceGrosze = rng.int(1, 50_000);
    const discountGrosze = rng.next() < 0.4 ? rng.int(0, quantity * unitPriceGrosze) : 0;
    return {
      ref: `L${i}`,
      name: `Towar ${i % 3}`,
      sku: null,
      quantity,
      unitPriceGrosze,
      discountGrosze,
      grossGrosze: quantity * unitPriceGrosze - discountGrosze,
      vatRate: rng.pick(VAT_RATES),
      annex15: false,
    };
  });
  const shippingRate = rng.pick(VAT_RATES);
  const shipping = Array.from({ length: rng.int(0, 2) }, (_, i) => ({
    ref: `S${i}`,
    name: `Kurier ${i}`,
    grossGrosze: rng.int(1, 5_000),
    vatRate: shippingRate,
  }));
  return normalizedOrder({ externalId: 'p', number: 'p', lines, shipping });
}

/** What is left of each invoice row (quantity, value) after the corrections so far, from their rows alone. */
function remaining(order: NormalizedOrder, corrections: readonly CorrectionTotals[]) {
  const rows = [
    ...order.lines.map((l) => ({ quantity: l.quantity, value: l.grossGrosze })),
    ...order.shipping.map((s) => ({ quantity: 1, value: s.grossGrosze })),
  ];
  for (const c of corrections) {
    for (const r of c.rows) {
      const row = rows[r.invoiceRow]!;
      row.value += rowDelta(r);
      if (r.state === 'difference') row.quantity += r.quantity;
      if (r.state === 'after') row.quantity = r.quantity;
    }
  }
  return rows;
}

function randomRefund(rng: Rng, order: NormalizedOrder, left: ReturnType<typeof remaining>, id: string): NormalizedRefund {
  const lines = order.lines.flatMap((l, i) => {
    const row = left[i]!;
    if (row.quantity === 0 || rng.next() < 0.5) return [];
    const quantity = rng.int(1, row.quantity);
    const perItem = Math.round(row.value / row.quantity);
    // mostly returns at the invoiced value; sometimes a price reduction, sometimes a price above what was invoiced
    const unitPriceGrosze = rng.next() < 0.6 ? perItem : rng.next() < 0.8 ? rng.int(0, perItem) : perItem + rng.int(1, 500);
    return [{ ref: null, invoiceLineRef: l.ref, name: l.name, sku: null, quantity, unitPriceGrosze, vatRate: l.vatRate }];
  });
  const shippingLeft = left.slice(order.lines.length).reduce((s, r) => s + r.value, 0);
  const shippingGrosze = shippingLeft > 0 && rng.next() < 0.3 ? rng.int(1, shippingLeft) : null;
  return { externalId: id, reason: null, createdAt: null, lines, shippingGrosze, shippingRef: null };
}

/** The refund of everything still invoiced: every remaining item at its value, the remaining shipping. */
function refundOfTheRest(order: NormalizedOrder, left: ReturnType<typeof remaining>): NormalizedRefund {
  const lines = order.lines.flatMap((l, i) => {
    const row = left[i]!;
    if (row.quantity === 0 || row.value === 0) return [];
    return [
      {
        ref: null,
        invoiceLineRef: l.ref,
        name: l.name,
        sku: null,
        quantity: row.quantity,
        unitPriceGrosze: Math.round(row.value / row.quantity),
        vatRate: l.vatRate,
      },
    ];
  });
  const shippingLeft = left.slice(order.lines.length).reduce((s, r) => s + r.value, 0);
  return { externalId: 'rest', reason: null, createdAt: null, lines, shippingGrosze: shippingLeft > 0 ? shippingLeft : null, shippingRef: null };
}

const SEEDS = Array.from({ length: 150 }, (_, i) => 1_000 + i);

describe('corrections over random orders and random partial refunds (seeded)', () => {
  test.each(SEEDS)('seed %i: no row is reduced below zero; invoice + corrections net to zero per rate', (seed) => {
    const rng = prng(seed);
    const order = randomOrder(rng);
    const accepted: NormalizedRefund[] = [];
    const corrections: CorrectionTotals[] = [];
    for (let k = 0; k < rng.int(0, 5); k++) {
      const refund = randomRefund(rng, order, remaining(order, corrections), `r${k}`);
      let c: CorrectionTotals;
      try {
        c = computeCorrection(order, accepted, refund);
      } catch (err) {
        // the only refusal is the API's 422: more than invoiced, or nothing at all
        expect(err).toBeInstanceOf(AppError);
        expect((err as AppError).code).toBe('order_unprocessable');
        continue;
      }
      accepted.push(refund);
      corrections.push(c);
      for (const row of remaining(order, corrections)) {
        expect(row.quantity).toBeGreaterThanOrEqual(0);
        expect(row.value).toBeGreaterThanOrEqual(0);
      }
    }
    const rest = refundOfTheRest(order, remaining(order, corrections));
    if (rest.lines.length || rest.shippingGrosze) corrections.push(computeCorrection(order, accepted, rest));
    for (const row of remaining(order, corrections)) expect(row.value).toBe(0);
    const invoice = computeTotals(order);
    for (const rate of VAT_RATES) {
      const sumOf = (f: 'grossGrosze' | 'vatGrosze' | 'netGrosze') =>
        (invoice.buckets.find((b) => b.rate === rate)?.[f] ?? 0) + corrections.reduce((s, c) => s + (c.buckets.find((b) => b.rate === rate)?.[f] ?? 0), 0);
      expect([rate, sumOf('grossGrosze'), sumOf('vatGrosze'), sumOf('netGrosze')]).toEqual([rate, 0, 0, 0]);
    }
  });

  test.each(SEEDS.filter((s) => s % 15 === 0))('seed %i: every correction of the sequence is valid FA(3)', (seed) => {
    const rng = prng(seed);
    const order = randomOrder(rng);
    const accepted: NormalizedRefund[] = [];
    const seller = { nip: '5265877635', name: 'Kawowy Świat', address1: 'ul. Marszałkowska 100/5', address2: '00-026 Warszawa' };
    for (let k = 0; k < 4; k++) {
      const refund = randomRefund(
        rng,
        order,
        remaining(
          order,
          accepted.map((r, i) => computeCorrection(order, accepted.slice(0, i), r)),
        ),
        `r${k}`,
      );
      try {
        computeCorrection(order, accepted, refund);
      } catch {
        continue;
      }
      const xml = buildCorrectionXml({
        seller,
        original: {
          order,
          number: 'FV/1',
          issueDate: '2026-06-01',
          ksefNumber: '5265877635-20260601-0100000A1B2C-7F',
          annotations: { cashAccounting: false, splitPayment: false },
        },
        earlierRefunds: accepted,
        refund,
        number: `KOR/${k}`,
        issueDate: '2026-06-09',
        systemInfo: 'test',
      });
      expect(validateXml(xml, 'fa3')).toEqual({ ok: true });
      accepted.push(refund);
    }
  });
});
