/**
 * VAT by the gross method (domain/fa3-mapping.md §10, DESIGN invariant 7): VAT is taken from the gross sum
 * of one rate bucket and rounded once, half away from zero, in integer grosze.
 */
/**
 * The rates the service supports (spec §1; VAT act art. 41 ust. 1, 2, 2a and art. 83 for 0 %), in the schema order of
 * FA(3)'s bucket fields P_13_1 … P_13_6_1. Adding a rate is this list plus its FA(3) fields in
 * server/ksef/fa3/parts.ts (RATE_FIELDS, which the compiler asks for); messages, schemas and the PDF follow.
 */
export const VAT_RATES = [23, 8, 5, 0] as const;
export type VatRate = (typeof VAT_RATES)[number];

/** The rates as prose for messages: `vatRateList()` "23, 8, 5, 0"; `vatRateList('or')` "23, 8, 5 or 0". */
export function vatRateList(lastJoin?: 'or' | 'and'): string {
  if (!lastJoin) return VAT_RATES.join(', ');
  return `${VAT_RATES.slice(0, -1).join(', ')} ${lastJoin} ${VAT_RATES.at(-1)}`;
}

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

/** Parses the API's rate text (a VAT_RATES value as a string, e.g. "23"); null for anything else. */
export function parseVatRate(text: string): VatRate | null {
  return ((VAT_RATES as readonly number[]).find((r) => String(r) === text) as VatRate | undefined) ?? null;
}
