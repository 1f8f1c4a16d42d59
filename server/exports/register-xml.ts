import { el, opt, serializeFragment, type XmlElement } from '@/server/ksef/fa3/xml';
import { formatGrosze } from '@/server/orders/money';
import { VAT_RATES, type VatRate } from '@/server/facts/vat-rates';
import type { RegisterRow } from './register-row';

/**
 * The register as the sales part of a JPK_V7M(3) Ewidencja: SprzedazWiersz rows and SprzedazCtrl, in the
 * structure's namespace and element order (Ministry of Finance brochure "JPK_VAT z deklaracją od 1 lutego 2026 r.",
 * the Ewidencja/SprzedazWiersz table). Not a whole JPK file: Naglowek, Podmiot1, purchases and the declaration are
 * the accountant's. Amounts are PLN with two decimals (TKwotowy), a correction's negative.
 */
export const JPK_V7M3_NAMESPACE = 'http://crd.gov.pl/wzor/2025/12/19/14090/';

/** K_ fields of the sales row per rate: net and VAT (brochure: K_13 0% domestic, K_15/K_16 5%, K_17/K_18 8% or 7%, K_19/K_20 23% or 22%). */
export const RATE_FIELDS: Record<VatRate, { net: string; vat?: string }> = {
  0: { net: 'K_13' },
  5: { net: 'K_15', vat: 'K_16' },
  8: { net: 'K_17', vat: 'K_18' },
  23: { net: 'K_19', vat: 'K_20' },
};
/** Ascending K_ order, as the schema's sequence wants it. */
const FIELD_ORDER: readonly VatRate[] = [...VAT_RATES].sort((a, b) => Number(RATE_FIELDS[a].net.slice(2)) - Number(RATE_FIELDS[b].net.slice(2)));

export const registerXmlHead = (): string => `<?xml version="1.0" encoding="UTF-8"?>\n<Ewidencja xmlns="${JPK_V7M3_NAMESPACE}">\n`;

export function sprzedazWiersz(lp: number, row: RegisterRow): XmlElement {
  const amounts = FIELD_ORDER.flatMap((rate) => {
    const r = row.rates.find((x) => x.rate === rate)!;
    if (r.netGrosze === 0 && r.vatGrosze === 0) return [];
    const f = RATE_FIELDS[rate];
    return [el(f.net, formatGrosze(r.netPlnGrosze)), f.vat && el(f.vat, formatGrosze(r.vatPlnGrosze))];
  });
  return el('SprzedazWiersz', [
    el('LpSprzedazy', lp),
    el('NrKontrahenta', row.buyerNip),
    el('NazwaKontrahenta', row.buyerName),
    el('DowodSprzedazy', row.number),
    el('DataWystawienia', row.issueDate),
    // the brochure: DataSprzedazy only when it differs from the issue date, as FA(3) P_6
    opt('DataSprzedazy', row.supplyDate),
    row.mark.kind === 'NrKSeF' ? el('NrKSeF', row.mark.ksefNumber) : el(row.mark.kind, 1),
    ...amounts,
  ]);
}

export const registerXmlRow = (lp: number, row: RegisterRow): string => serializeFragment(sprzedazWiersz(lp, row), 1);

/** Output VAT of a row in PLN, what SprzedazCtrl/PodatekNalezny sums. */
export const rowVatPln = (row: RegisterRow): number => row.rates.reduce((a, r) => a + r.vatPlnGrosze, 0);

export const registerXmlTail = (rows: number, vatPlnGrosze: number): string =>
  serializeFragment(el('SprzedazCtrl', [el('LiczbaWierszySprzedazy', rows), el('PodatekNalezny', formatGrosze(vatPlnGrosze))]), 1) + '</Ewidencja>\n';
