import { parseGrosze } from '@/server/orders/money';
import { SUMMARY_FIELDS, type SummaryField } from '@/server/pdf/format';

/**
 * The fields of an FA(3) document the register shows, read from the XML as issued. The printout's reader
 * (readIssuedFacts) builds the whole element tree, about 2 ms a document; a month's register of 50,000 documents
 * reads only these elements, by name, in about a hundredth of that. Our FA(3) builder writes these elements
 * without attributes and escapes only &, < and > (server/ksef/fa3/xml.ts); register-facts.test.ts holds both
 * readers to the same answers.
 */
export type RegisterFacts = {
  number: string;
  issueDate: string;
  /** P_6, present when the supply date differs from the issue date. */
  supplyDate: string | null;
  /** Platnosc/DataZaplaty of a paid document. */
  paymentDate: string | null;
  buyerNip: string | null;
  buyerName: string;
  currency: string;
  /** P_13_x / P_14_x / P_14_xW per FA(3) rate group present. */
  summary: { field: SummaryField; netGrosze: number; vatGrosze: number; vatPlnGrosze: number | null }[];
  /** P_15. */
  totalGrosze: number;
  /** DaneFaKorygowanej of a KOR (the first, the only one this service writes). */
  corrects: { number: string; issueDate: string; ksefNumber: string | null } | null;
};

const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescape = (s: string) =>
  s.includes('&')
    ? s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
        e.startsWith('#') ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : ENTITY[e.toLowerCase()]!,
      )
    : s;

/** The content of the first `<name>` element within `xml` (no attributes), or null. */
function inner(xml: string, name: string): string | null {
  const open = `<${name}>`;
  const start = xml.indexOf(open);
  if (start < 0) return null;
  const end = xml.indexOf(`</${name}>`, start);
  return end < 0 ? null : xml.slice(start + open.length, end);
}
const text = (xml: string | null, name: string): string | null => {
  const v = xml === null ? null : inner(xml, name);
  return v === null ? null : unescape(v.trim());
};
function required(xml: string | null, name: string): string {
  const v = text(xml, name);
  if (!v) throw new Error(`FA(3) XML without ${name}`);
  return v;
}
function amount(xml: string, name: string): number | null {
  const v = text(xml, name);
  if (v === null) return null;
  const grosze = parseGrosze(v);
  if (grosze === null) throw new Error(`FA(3) ${name} is not an amount: ${v}`);
  return grosze;
}

export function readRegisterFacts(xml: string): RegisterFacts {
  const fa = inner(xml, 'Fa');
  const buyer = inner(xml, 'Podmiot2');
  if (fa === null || buyer === null) throw new Error('FA(3) XML without Fa or Podmiot2');
  // the summary and totals sit in Fa before its rows; reading them before FaWiersz keeps row fields out of reach
  const head = fa.slice(0, fa.indexOf('<FaWiersz>') < 0 ? fa.length : fa.indexOf('<FaWiersz>'));
  const summary: RegisterFacts['summary'] = [];
  for (const field of SUMMARY_FIELDS) {
    const net = amount(head, `P_13_${field}`);
    const vat = amount(head, `P_14_${field}`);
    if (net === null && vat === null) continue;
    summary.push({ field, netGrosze: net ?? 0, vatGrosze: vat ?? 0, vatPlnGrosze: amount(head, `P_14_${field}W`) });
  }
  const payment = inner(fa, 'Platnosc');
  const corrected = inner(fa, 'DaneFaKorygowanej');
  return {
    number: required(head, 'P_2'),
    issueDate: required(head, 'P_1'),
    supplyDate: text(head, 'P_6'),
    paymentDate: payment !== null && text(payment, 'Zaplacono') === '1' ? text(payment, 'DataZaplaty') : null,
    buyerNip: text(inner(buyer, 'DaneIdentyfikacyjne'), 'NIP'),
    buyerName: required(inner(buyer, 'DaneIdentyfikacyjne'), 'Nazwa'),
    currency: required(head, 'KodWaluty'),
    summary,
    totalGrosze: amount(head, 'P_15') ?? 0,
    corrects: corrected
      ? {
          number: required(corrected, 'NrFaKorygowanej'),
          issueDate: required(corrected, 'DataWystFaKorygowanej'),
          ksefNumber: text(corrected, 'NrKSeFFaKorygowanej'),
        }
      : null,
  };
}
