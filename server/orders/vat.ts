import { VAT_RATES, type VatRate } from '@/server/facts/vat-rates';

/**
 * VAT by the gross method (domain/fa3-mapping.md §10, DESIGN invariant 7): VAT is taken from the gross sum
 * of one rate bucket and rounded once, half away from zero, in integer grosze.
 */
export type RateTotals = { rate: VatRate; netGrosze: number; vatGrosze: number; grossGrosze: number };

/** Largest bucket the integer formula below keeps exact (2·gross·23 must stay a safe integer). */
export const MAX_BUCKET_GROSZE = 100_000_000_000_000;

export function vatFromGross(grossGrosze: number, rate: VatRate): number {
  if (!Number.isSafeInteger(grossGrosze) || Math.abs(grossGrosze) > MAX_BUCKET_GROSZE) {
    throw new RangeError(`gross amount out of range: ${grossGrosze}`);
  }
  const d = 100 + rate;
  // floor(x + 1/2) on the absolute value = half away from zero; Math.round would round -0.5 towards +∞
  const vat = Math.floor((2 * Math.abs(grossGrosze) * rate + d) / (2 * d));
  return grossGrosze < 0 && vat > 0 ? -vat : vat;
}

/** Net, VAT and gross of one bucket whose gross sum is known. */
export function rateTotals(rate: VatRate, grossGrosze: number): RateTotals {
  const vatGrosze = vatFromGross(grossGrosze, rate);
  return { rate, netGrosze: grossGrosze - vatGrosze, vatGrosze, grossGrosze };
}

/** Groups gross amounts by rate and rounds each bucket once; buckets come in VAT_RATES order, empty ones omitted. */
export function bucketTotals(items: readonly { grossGrosze: number; rate: VatRate }[]): RateTotals[] {
  return VAT_RATES.filter((rate) => items.some((i) => i.rate === rate)).map((rate) =>
    rateTotals(
      rate,
      items.filter((i) => i.rate === rate).reduce((sum, i) => sum + i.grossGrosze, 0),
    ),
  );
}
