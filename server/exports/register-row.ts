import type { ExchangeRate } from '@/server/ksef/fa3/exchange-rate';
import { rateMicros, toPlnGrosze } from '@/server/ksef/fa3/exchange-rate';
import { rateOfNetField } from '@/server/ksef/fa3/parts';
import { VAT_RATES, type VatRate } from '@/server/facts/vat-rates';
import type { OutageMode } from '@/server/outage/mode-names';
import { jpkKsefMark, type JpkKsefMark } from './jpk-marker';
import type { RegisterFacts } from './register-facts';

/** What the register reads of a document besides its FA(3) XML (register-query.ts selects it). */
export type RegisterSource = {
  id: string;
  kind: 'invoice' | 'correction';
  ksefNumber: string | null;
  /** The NBP rate of the document, or for a correction of its invoice (a KOR keeps the invoice's rate). */
  exchangeRate: ExchangeRate | null;
  offlineMode: boolean;
  offlineIssuedAt: Date | null;
  offlineDeadline: Date | null;
  offlineDeadlineMissed: boolean;
  /** The outage mode it was issued in (server/outage/modes.ts), null for one issued in KSeF. */
  outageMode: OutageMode | null;
  /** For a correction: the corrected invoice's id. */
  invoiceId: string | null;
  /** When the row's KSeF number or JPK marker took its present value (register-query.ts). */
  markChangedAt: Date;
};

/** One rate's amounts: in the document's currency and in PLN (integer grosze, negative on a reducing correction). */
export type RateAmounts = { rate: VatRate; netGrosze: number; vatGrosze: number; netPlnGrosze: number; vatPlnGrosze: number };

export type RegisterRow = {
  documentId: string;
  kind: 'invoice' | 'correction';
  number: string;
  issueDate: string;
  /** P_6: the supply date when it differs from the issue date (art. 106e ust. 1 pkt 6), else null. */
  supplyDate: string | null;
  /** Platnosc/DataZaplaty of a paid document. */
  paymentDate: string | null;
  buyerNip: string;
  buyerName: string;
  currency: string;
  exchangeRate: ExchangeRate | null;
  /** The four rates this service issues, always in VAT_RATES order (zeros where the document has none). */
  rates: RateAmounts[];
  grossGrosze: number;
  grossPlnGrosze: number;
  mark: JpkKsefMark;
  markChangedAt: Date;
  offline: { mode: OutageMode; issuedAt: Date | null; deadline: Date | null; deadlineMissed: boolean } | null;
  corrects: { invoiceId: string | null; number: string; issueDate: string; ksefNumber: string | null } | null;
};

/**
 * A register row from the FA(3) XML as issued (readRegisterFacts) and the document's KSeF facts. Amounts are the
 * XML's; net in PLN is the net converted at the document's NBP rate (art. 31a ust. 1), VAT in PLN is P_14_xW, as
 * the JPK wants both in PLN (K_ fields are PLN amounts).
 */
export function buildRegisterRow(src: RegisterSource, facts: RegisterFacts): RegisterRow {
  const micros = src.exchangeRate && facts.currency !== 'PLN' ? rateMicros(src.exchangeRate) : null;
  const pln = (grosze: number) => (micros === null ? grosze : toPlnGrosze(grosze, micros));
  const rates = VAT_RATES.map((rate): RateAmounts => ({ rate, netGrosze: 0, vatGrosze: 0, netPlnGrosze: 0, vatPlnGrosze: 0 }));
  for (const s of facts.summary) {
    const rate = rateOfNetField(s.field);
    if (rate === undefined) throw new Error(`document ${src.id}: FA(3) P_13_${s.field} is not a rate this service issues`);
    const r = rates[VAT_RATES.indexOf(rate)]!;
    r.netGrosze += s.netGrosze;
    r.vatGrosze += s.vatGrosze;
    r.netPlnGrosze += pln(s.netGrosze);
    r.vatPlnGrosze += s.vatPlnGrosze ?? pln(s.vatGrosze);
  }
  return {
    documentId: src.id,
    kind: src.kind,
    number: facts.number,
    issueDate: facts.issueDate,
    supplyDate: facts.supplyDate,
    paymentDate: facts.paymentDate,
    buyerNip: facts.buyerNip ?? '',
    buyerName: facts.buyerName,
    currency: facts.currency,
    exchangeRate: micros === null ? null : src.exchangeRate,
    rates,
    grossGrosze: facts.totalGrosze,
    grossPlnGrosze: rates.reduce((a, r) => a + r.netPlnGrosze + r.vatPlnGrosze, 0),
    mark: jpkKsefMark(src),
    markChangedAt: src.markChangedAt,
    offline:
      src.offlineMode || src.offlineIssuedAt
        ? { mode: src.outageMode ?? 'offline24', issuedAt: src.offlineIssuedAt, deadline: src.offlineDeadline, deadlineMissed: src.offlineDeadlineMissed }
        : null,
    corrects: facts.corrects && { invoiceId: src.invoiceId, ...facts.corrects },
  };
}
