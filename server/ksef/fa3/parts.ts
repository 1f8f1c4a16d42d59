import { AppError } from '@/server/errors';
import { formatGrosze } from '@/server/orders/money';
import { isValidNip } from '@/server/orders/nip';
import type { NormalizedBuyer, NormalizedOrder } from '@/server/orders/types';
import { VAT_RATES, type VatRate } from '@/server/facts/vat-rates';
import type { RateTotals } from '@/server/orders/vat';
import { cleanText, el, opt, type XmlElement } from './xml';

/** FA(3) building blocks shared by the VAT invoice and the KOR, in schema order (fa3-mapping.md §2-8). */

export const FA3_NAMESPACE = 'http://crd.gov.pl/wzor/2025/06/25/13775/';

/** Seller data from the account (not from the shop). */
export type Seller = {
  nip: string;
  name: string;
  address1: string;
  address2: string | null;
  countryCode?: string;
  email?: string | null;
  phone?: string | null;
  /** the seller accounts VAT by the cash method (art. 21 ust. 1): P_16 = 1, "metoda kasowa" */
  cashAccounting?: boolean;
};

export const buildFailed = (why: string) => new AppError('invoice_build_failed', undefined, why);

export function naglowek(systemInfo: string, generatedAt: Date): XmlElement {
  return el('Naglowek', [
    el('KodFormularza', 'FA', { kodSystemowy: 'FA (3)', wersjaSchemy: '1-0E' }),
    el('WariantFormularza', '3'),
    // always UTC with Z; whole seconds keep the value readable and schema-valid
    el('DataWytworzeniaFa', `${generatedAt.toISOString().slice(0, 19)}Z`),
    opt('SystemInfo', cleanText(systemInfo, 256)),
  ]);
}

function adres(countryCode: string, line1: string, line2: string | null): XmlElement {
  return el('Adres', [el('KodKraju', countryCode), el('AdresL1', cleanText(line1, 512)), opt('AdresL2', line2 && cleanText(line2, 512))]);
}

const validEmail = (email: string | null | undefined) => (email && /^.+@.+$/.test(email) && email.length <= 255 ? cleanText(email, 255) : null);

export function podmiot1(seller: Seller): XmlElement {
  if (!isValidNip(seller.nip)) throw buildFailed(`seller NIP ${seller.nip} fails the checksum`);
  if (!cleanText(seller.name) || !cleanText(seller.address1)) throw buildFailed('seller name or address is empty');
  const email = validEmail(seller.email);
  const phone = seller.phone && cleanText(seller.phone).length <= 16 ? cleanText(seller.phone) : null;
  return el('Podmiot1', [
    el('DaneIdentyfikacyjne', [el('NIP', seller.nip), el('Nazwa', cleanText(seller.name, 512))]),
    adres(seller.countryCode ?? 'PL', seller.address1, seller.address2),
    (email || phone) && el('DaneKontaktowe', [opt('Email', email), opt('Telefon', phone)]),
  ]);
}

export function podmiot2(buyer: NormalizedBuyer): XmlElement {
  if (!isValidNip(buyer.nip)) throw buildFailed(`buyer NIP ${buyer.nip} fails the checksum`);
  const email = validEmail(buyer.email);
  return el('Podmiot2', [
    el('DaneIdentyfikacyjne', [el('NIP', buyer.nip), el('Nazwa', cleanText(buyer.name, 512))]),
    adres(buyer.countryCode, buyer.address1, buyer.address2),
    email && el('DaneKontaktowe', [el('Email', email)]),
    opt('NrKlienta', buyer.customerNumber && cleanText(buyer.customerNumber)),
    // an ordinary company unless the input says the invoice concerns a JST unit or a VAT-group member (fa3-mapping.md §5)
    el('JST', buyer.jst ? '1' : '2'),
    el('GV', buyer.vatGroup ? '1' : '2'),
  ]);
}

/**
 * The JST unit (Rola 8 "JST – odbiorca") or VAT-group member (Rola 10 "Członek grupy VAT – odbiorca") the invoice
 * concerns: with JST = 1 / GV = 1 the XSD annotations ask for it, though the schema cannot enforce it (tax-rules.md §6).
 */
export function podmiot3(buyer: NormalizedBuyer): XmlElement | undefined {
  if (!buyer.jst && !buyer.vatGroup) return undefined;
  const unit = buyer.recipient;
  if (!unit) throw buildFailed(`the buyer is marked ${buyer.jst ? 'JST' : 'VAT group'} but the unit it concerns is missing`);
  if (!isValidNip(unit.nip)) throw buildFailed(`recipient NIP ${unit.nip} fails the checksum`);
  return el('Podmiot3', [
    el('DaneIdentyfikacyjne', [el('NIP', unit.nip), el('Nazwa', cleanText(unit.name, 512))]),
    adres('PL', unit.address1, unit.address2),
    el('Rola', buyer.jst ? '8' : '10'),
  ]);
}

/** Art. 106e ust. 1 pkt 18a: split payment above 15,000 PLN gross (P_15, converted at the invoice's rate). */
export const SPLIT_PAYMENT_THRESHOLD_PLN_GROSZE = 1_500_000;

/**
 * P_18A = 1 when the invoice covers goods or services of annex 15 and its total P_15 "przekracza" (exceeds) 15,000 PLN
 * (art. 106e ust. 1 pkt 18a, art. 108a ust. 1a; XSD P_18A). `totalPlnGrosze` is P_15, in PLN.
 */
export const splitPayment = (order: Pick<NormalizedOrder, 'lines'>, totalPlnGrosze: number): boolean =>
  order.lines.some((l) => l.annex15) && totalPlnGrosze > SPLIT_PAYMENT_THRESHOLD_PLN_GROSZE;

export type Annotations = { cashAccounting: boolean; splitPayment: boolean };

/** Every child is mandatory (fa3-mapping.md §8); P_16 and P_18A follow the seller and the order, the rest is an ordinary domestic sale. */
export function adnotacje(a: Annotations): XmlElement {
  return el('Adnotacje', [
    el('P_16', a.cashAccounting ? '1' : '2'), // art. 106e ust. 1 pkt 16, "metoda kasowa"
    el('P_17', '2'),
    el('P_18', '2'),
    el('P_18A', a.splitPayment ? '1' : '2'), // "mechanizm podzielonej płatności"
    el('Zwolnienie', [el('P_19N', '1')]),
    el('NoweSrodkiTransportu', [el('P_22N', '1')]),
    el('P_23', '2'),
    el('PMarzy', [el('P_PMarzyN', '1')]),
  ]);
}

/** FA(3) rate code on rows (P_12) and the bucket fields of each of VAT_RATES. Rate 0 is the domestic 0 % (spec §1). */
const RATE_FIELDS: Record<VatRate, { code: string; net: string; vat?: string }> = {
  23: { code: '23', net: 'P_13_1', vat: 'P_14_1' },
  8: { code: '8', net: 'P_13_2', vat: 'P_14_2' },
  5: { code: '5', net: 'P_13_3', vat: 'P_14_3' },
  0: { code: '0 KR', net: 'P_13_6_1' },
};

export const rateCode = (rate: VatRate): string => RATE_FIELDS[rate].code;

/** The rate whose net bucket is FA(3)'s `P_13_<suffix>` (the sales registers read buckets back from the XML). */
export const rateOfNetField = (suffix: string): VatRate | undefined => VAT_RATES.find((rate) => RATE_FIELDS[rate].net === `P_13_${suffix}`);

/** Buckets arrive in VAT_RATES order, which is the schema order of P_13_1 … P_13_6_1. `vatPln` only for foreign currency. */
export function bucketFields(buckets: readonly RateTotals[], vatPln?: (b: RateTotals) => number): XmlElement[] {
  return buckets.flatMap((b) => {
    const f = RATE_FIELDS[b.rate];
    if (!f.vat) return [el(f.net, formatGrosze(b.netGrosze))];
    return [el(f.net, formatGrosze(b.netGrosze)), el(f.vat, formatGrosze(b.vatGrosze)), vatPln && el(`${f.vat}W`, formatGrosze(vatPln(b)))].filter(
      (x): x is XmlElement => Boolean(x),
    );
  });
}

export type Row = {
  /** UU_ID (rowId) */
  uuId: string;
  name: string;
  sku: string | null;
  unit: 'szt.' | 'usł.';
  quantity: number;
  /** P_9B text (gross unit price, up to 8 decimals) */
  unitPrice: string;
  /** P_10: the row's gross discount (never also inside P_9B); on a KOR difference row the change of it */
  discountGrosze: number | null;
  /** P_11A */
  grossGrosze: number;
  rate: VatRate;
  /** P_12_Zal_15 */
  annex15: boolean;
  /** StanPrzed: the "before" row of a before/after pair on a KOR */
  before: boolean;
};

/**
 * UU_ID of a row (TZnakowy50): the source system's row id when it fits as it is, else `<document id>-<row number>`,
 * stable for the document, so a correction can name the invoice row it changes (tax-rules.md §1.4).
 */
export function rowId(ref: string | null, base: string, index: number): string {
  if (ref && cleanText(ref, 50) === ref) return ref;
  const suffix = `-${index + 1}`;
  return `${cleanText(base, 50 - suffix.length)}${suffix}`;
}

export function faWiersz(row: Row, index: number, kursWaluty: string | null): XmlElement {
  const sku = row.sku && cleanText(row.sku, 50);
  return el('FaWiersz', [
    el('NrWierszaFa', index + 1),
    el('UU_ID', row.uuId),
    el('P_7', cleanText(row.name, 512)),
    opt('Indeks', sku),
    el('P_8A', row.unit),
    el('P_8B', row.quantity),
    el('P_9B', row.unitPrice),
    row.discountGrosze !== null && row.discountGrosze !== 0 && el('P_10', formatGrosze(row.discountGrosze)),
    el('P_11A', formatGrosze(row.grossGrosze)),
    el('P_12', rateCode(row.rate)),
    row.annex15 && el('P_12_Zal_15', '1'),
    kursWaluty !== null && el('KursWaluty', kursWaluty),
    row.before && el('StanPrzed', '1'),
  ]);
}

/**
 * Arithmetic is outside the XSD and outside KSeF's checks (fa3-mapping.md §1), so the builder checks itself:
 * rows per rate add up to the bucket gross, net + VAT = gross in every bucket, buckets add up to P_15.
 */
export function checkSums(rows: readonly Pick<Row, 'grossGrosze' | 'rate'>[], buckets: readonly RateTotals[], totalGrosze: number): void {
  for (const b of buckets) {
    const rowsGross = rows.filter((r) => r.rate === b.rate).reduce((s, r) => s + r.grossGrosze, 0);
    if (rowsGross !== b.grossGrosze)
      throw buildFailed(`rows at ${b.rate} % add up to ${formatGrosze(rowsGross)}, the bucket says ${formatGrosze(b.grossGrosze)}`);
    if (b.netGrosze + b.vatGrosze !== b.grossGrosze)
      throw buildFailed(`bucket ${b.rate} %: net ${formatGrosze(b.netGrosze)} + VAT ${formatGrosze(b.vatGrosze)} ≠ gross ${formatGrosze(b.grossGrosze)}`);
  }
  const orphan = rows.find((r) => !buckets.some((b) => b.rate === r.rate));
  if (orphan) throw buildFailed(`a row at ${orphan.rate} % has no P_13 bucket`);
  const bucketSum = buckets.reduce((s, b) => s + b.netGrosze + b.vatGrosze, 0);
  if (bucketSum !== totalGrosze) throw buildFailed(`P_13 + P_14 add up to ${formatGrosze(bucketSum)}, P_15 is ${formatGrosze(totalGrosze)}`);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date FA(3) accepts for P_1 (2006-01-01 … 2050-01-01). */
export function checkIssueDate(date: string, what: string): string {
  const m = DATE.exec(date);
  const valid = m && new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) === date;
  if (!valid || date < '2006-01-01' || date > '2050-01-01') throw buildFailed(`${what} ${date} is not a date between 2006-01-01 and 2050-01-01`);
  return date;
}

export function checkNumber(number: string, what: string): string {
  const clean = cleanText(number);
  if (!clean || clean !== number) throw buildFailed(`${what} "${number}" is empty, too long or has forbidden characters`);
  return clean;
}
