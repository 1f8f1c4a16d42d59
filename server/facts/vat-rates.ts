/**
 * The VAT rates the service supports (spec §1; VAT act art. 41 ust. 1, 2, 2a and art. 83 for 0 %), in the schema
 * order of FA(3)'s bucket fields P_13_1 … P_13_6_1. Adding a rate is this list plus its FA(3) fields in
 * server/ksef/fa3/parts.ts (RATE_FIELDS, which the compiler asks for); the API's schemas, OpenAPI, messages, the
 * sales registers, the PDF and the SDK (sdk/src/facts.ts, regenerated) follow.
 */
export const VAT_RATES = [23, 8, 5, 0] as const;
export type VatRate = (typeof VAT_RATES)[number];

/** The rates as prose: `vatRateList()` "23, 8, 5, 0"; `vatRateList('or')` "23, 8, 5 or 0"; any language's word joins the last. */
export function vatRateList(lastJoin?: string): string {
  if (!lastJoin) return VAT_RATES.join(', ');
  return `${VAT_RATES.slice(0, -1).join(', ')} ${lastJoin} ${VAT_RATES.at(-1)}`;
}

/** Parses the API's rate text (a VAT_RATES value as a string, e.g. "23"); null for anything else. */
export function parseVatRate(text: string): VatRate | null {
  return ((VAT_RATES as readonly number[]).find((r) => String(r) === text) as VatRate | undefined) ?? null;
}
