import { z } from 'zod';
import { SUMMARY_FIELDS, type SummaryField } from './format';

/**
 * Everything the PDF shows, already decided: the renderer formats and lays out, it never computes tax.
 * document-view.ts builds it from the FA(3) XML as sent, so the printout repeats the e-invoice field by field.
 * Money is integer grosze (hundredths of the invoice currency), negative on corrections; FA(3) decimals
 * with more precision (P_9B, P_10: up to 8 digits) stay decimal text. Dates are `YYYY-MM-DD`.
 */

const ZIsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');
const ZGrosze = z.number().int();
const ZDecimal = z.string().regex(/^-?\d+(\.\d+)?$/);

/** Podmiot1, Podmiot2 or Podmiot3 as printed (FA(3) DaneIdentyfikacyjne, Adres, DaneKontaktowe). */
export const ZPartyView = z.object({
  name: z.string().min(1),
  nip: z.string().optional(),
  /** Podmiot3 IDWew: a unit identified by its parent's NIP and a suffix. */
  internalId: z.string().optional(),
  addressLines: z.array(z.string()).max(3),
  /** ISO alpha-2 (Adres/KodKraju); printed as the country's Polish name. */
  countryCode: z.string().length(2).optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  /** Podmiot2/NrKlienta. */
  customerNumber: z.string().optional(),
  /** Podmiot2/JST (mandatory there, 1 or 2): whether the invoice concerns a subordinate unit of a local-government body. */
  jst: z.boolean().optional(),
  /** Podmiot2/GV (mandatory there, 1 or 2): whether the invoice concerns a member of a VAT group. */
  gv: z.boolean().optional(),
  /** Podmiot3/Rola (TRolaPodmiotu3, 1–11). */
  role: z.number().int().min(1).max(11).optional(),
});

/** One FaWiersz, gross method. On a correction: difference rows (kor-mapping.md §3A) or before/after rows (§3B). */
export const ZRowView = z.object({
  /** NrWierszaFa. */
  lp: z.string(),
  /** UU_ID: the row's unique id, which corrections cite. */
  uuId: z.string().optional(),
  name: z.string().min(1),
  /** Indeks. */
  sku: z.string().optional(),
  /** P_8B, decimal text up to 6 fraction digits. */
  quantity: ZDecimal,
  /** P_8A. */
  unit: z.string().optional(),
  /** P_9B, up to 8 fraction digits. */
  unitGross: ZDecimal,
  /** P_10, a discount not already in the unit price. */
  discount: ZDecimal.optional(),
  /** P_12 as coded in FA(3): "23", "8", "5", "0 KR", "zw", … */
  rate: z.string().min(1),
  /** P_12_Zal_15 = 1: goods or services of annex 15 to the VAT act. */
  annex15: z.boolean().optional(),
  /** P_11A. */
  grossGrosze: ZGrosze,
  /** StanPrzed = 1: the "before" row of a before/after pair on a correction. */
  before: z.boolean().optional(),
});

/** One row of "Podsumowanie stawek podatku": the FA(3) field group P_13_x / P_14_x / P_14_xW. */
export const ZVatSummaryView = z.object({
  field: z.enum(SUMMARY_FIELDS as [SummaryField, ...SummaryField[]]),
  netGrosze: ZGrosze,
  vatGrosze: ZGrosze,
  /** VAT converted to PLN, foreign-currency documents only (P_14_xW). */
  vatPlnGrosze: ZGrosze.optional(),
});

export const ZPaymentView = z.object({
  /** Printed payment form (FormaPlatnosci), e.g. "Przelew", "Karta". */
  form: z.string().optional(),
  paid: z.boolean(),
  date: ZIsoDate.optional(),
});

/** A corrected invoice (DaneFaKorygowanej). */
export const ZCorrectedInvoiceView = z.object({
  number: z.string().min(1),
  issueDate: ZIsoDate,
  ksefNumber: z.string().optional(),
});

export const ZCorrectionView = z.object({
  reason: z.string().optional(),
  /** TypKorekty: 1 at the original's date, 2 at the correction's date, 3 another date. */
  type: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
  invoices: z.array(ZCorrectedInvoiceView).min(1),
});

/** WarunkiTransakcji/Zamowienia: the shop order the invoice documents. */
export const ZOrderView = z.object({ number: z.string().optional(), date: ZIsoDate.optional() });

/** The FA(3) header's flags the printout must state (Adnotacje, art. 106e ust. 1 pkt 16–18a). */
export const ZAnnotationsView = z.object({
  cashAccounting: z.boolean(),
  selfBilling: z.boolean(),
  reverseCharge: z.boolean(),
  splitPayment: z.boolean(),
});

export const ZDocumentView = z
  .object({
    /** RodzajFaktury. */
    type: z.enum(['VAT', 'KOR']),
    number: z.string().min(1),
    /** Null while KSeF has not numbered the document: KOD I is then labelled OFFLINE. */
    ksefNumber: z.string().nullable(),
    issueDate: ZIsoDate,
    issuePlace: z.string().optional(),
    /** P_6: date of supply or of its completion, given only when it differs from the issue date. */
    deliveryDate: ZIsoDate.optional(),
    /** KodWaluty, ISO 4217. */
    currency: z.string().regex(/^[A-Z]{3}$/),
    /** KursWaluty common to all rows (foreign currency only). */
    exchangeRate: ZDecimal.optional(),
    seller: ZPartyView,
    buyer: ZPartyView,
    /** Podmiot3: a JST unit, a VAT-group member, a payer … */
    otherParties: z.array(ZPartyView),
    correction: ZCorrectionView.optional(),
    rows: z.array(ZRowView).min(1),
    vatSummary: z.array(ZVatSummaryView).min(1),
    /** P_15: amount due, or for a correction the difference. */
    totalGrosze: ZGrosze,
    annotations: ZAnnotationsView,
    /** DodatkowyOpis (Klucz, Wartosc and, for a note on one row, its NrWiersza). */
    notes: z.array(z.object({ key: z.string(), value: z.string(), row: z.string().optional() })),
    payment: ZPaymentView.optional(),
    orders: z.array(ZOrderView),
    /** An invoice issued after the art. 106i deadline: the deadline that was missed. */
    lateSince: ZIsoDate.optional(),
    /** Naglowek/SystemInfo, printed as "Wytworzona w:". */
    systemInfo: z.string().optional(),
    /** KOD I, from kodIUrl in server/ksef/qr.ts. */
    qr: z.object({ url: z.string().url() }),
    /** KOD II, the issuer-certificate code of a document issued offline. */
    certificateQr: z.object({ url: z.string().url() }).optional(),
  })
  .refine((v) => (v.type === 'KOR') === (v.correction !== undefined), {
    message: 'a correction needs its correction block, an invoice must not have one',
    path: ['correction'],
  });

export type TPartyView = z.infer<typeof ZPartyView>;
export type TRowView = z.infer<typeof ZRowView>;
export type TVatSummaryView = z.infer<typeof ZVatSummaryView>;
export type TDocumentView = z.infer<typeof ZDocumentView>;
