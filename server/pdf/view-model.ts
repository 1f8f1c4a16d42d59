import { z } from 'zod';

/**
 * Everything the PDF shows, already decided: the renderer formats and lays out, it never computes
 * tax. Money is integer grosze (hundredths of the invoice currency); negative on corrections.
 * Dates are calendar dates `YYYY-MM-DD` (Europe/Warsaw); the PDF prints them as DD.MM.YYYY.
 */

const ZIsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');
const ZGrosze = z.number().int();

/** VAT rates the service supports (spec §1); 0 is domestic 0% ("0 KR" in FA(3)). */
export const ZVatRate = z.union([z.literal(23), z.literal(8), z.literal(5), z.literal(0)]);

/** Seller (Podmiot1) or buyer (Podmiot2) as printed: name, NIP, address lines (FA(3) AdresL1, AdresL2). */
export const ZPartyView = z.object({
  name: z.string().min(1),
  nip: z.string().regex(/^\d{10}$/),
  addressLines: z.array(z.string()).max(3),
  /** ISO alpha-2; printed only when it is not PL. */
  countryCode: z.string().length(2).optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
});

/**
 * One FaWiersz row, gross method. On a correction these are the difference rows: negative quantity
 * and gross value, positive unit price (kor-mapping.md §3A).
 */
export const ZRowView = z.object({
  name: z.string().min(1),
  sku: z.string().optional(),
  /** Decimal text, up to 6 fraction digits (FA(3) TIlosci), e.g. "3", "-1", "0.5". */
  quantity: z.string().regex(/^-?\d+(\.\d{1,6})?$/),
  unit: z.string(),
  unitGrossGrosze: ZGrosze,
  /** Discount not already included in the unit price (P_10); 0 prints as an empty cell. */
  discountGrosze: ZGrosze,
  vatRate: ZVatRate,
  grossGrosze: ZGrosze,
});

/** One bucket of "Podsumowanie stawek podatku" (P_13_x / P_14_x / P_14_xW). */
export const ZVatSummaryView = z.object({
  rate: ZVatRate,
  netGrosze: ZGrosze,
  vatGrosze: ZGrosze,
  grossGrosze: ZGrosze,
  /** VAT converted to PLN, foreign-currency documents only (P_14_xW). */
  vatPlnGrosze: ZGrosze.optional(),
});

/** The NBP table A average rate used for a foreign-currency document. */
export const ZExchangeRateView = z.object({
  /** PLN per unit of the invoice currency as decimal text, e.g. "4.2322". */
  rate: z.string().regex(/^\d+(\.\d{1,6})?$/),
  date: ZIsoDate,
  /** NBP table number, e.g. "103/A/NBP/2026". */
  table: z.string().min(1),
});

export const ZPaymentView = z.object({
  /** Payment form as printed, e.g. "Przelew", "Karta", "PayPal". */
  form: z.string().min(1),
  paid: z.boolean(),
  date: ZIsoDate.optional(),
});

/** The invoice a correction refers to (DaneFaKorygowanej) and why (PrzyczynaKorekty). */
export const ZCorrectionView = z.object({
  originalNumber: z.string().min(1),
  originalIssueDate: ZIsoDate,
  originalKsefNumber: z.string().min(1),
  reason: z.string().min(1),
});

export const ZTotalsView = z.object({
  netGrosze: ZGrosze,
  vatGrosze: ZGrosze,
  /** P_15: amount due, or for a correction the difference. */
  grossGrosze: ZGrosze,
});

export const ZDocumentView = z
  .object({
    kind: z.enum(['invoice', 'correction']),
    number: z.string().min(1),
    /** Null only while KSeF has not numbered the document: the QR label then reads OFFLINE. */
    ksefNumber: z.string().nullable(),
    issueDate: ZIsoDate,
    issuePlace: z.string().optional(),
    /** P_6, printed as "Data dokonania dostawy" when given. */
    taxPointDate: ZIsoDate.optional(),
    /** ISO 4217; PLN amounts print with "zł", others with the code. */
    currency: z.string().regex(/^[A-Z]{3}$/),
    seller: ZPartyView,
    buyer: ZPartyView,
    rows: z.array(ZRowView).min(1),
    vatSummary: z.array(ZVatSummaryView).min(1),
    exchangeRate: ZExchangeRateView.optional(),
    payment: ZPaymentView.optional(),
    correction: ZCorrectionView.optional(),
    totals: ZTotalsView,
    /** KOD I, from kodIUrl in server/ksef/qr.ts. */
    qr: z.object({ url: z.string().url() }),
  })
  .refine((v) => (v.kind === 'correction') === (v.correction !== undefined), {
    message: 'a correction needs its correction block, an invoice must not have one',
    path: ['correction'],
  })
  .refine((v) => (v.currency === 'PLN') === (v.exchangeRate === undefined), {
    message: 'a foreign-currency document needs its NBP rate, a PLN one must not have one',
    path: ['exchangeRate'],
  });

export type TVatRate = z.infer<typeof ZVatRate>;
export type TPartyView = z.infer<typeof ZPartyView>;
export type TRowView = z.infer<typeof ZRowView>;
export type TVatSummaryView = z.infer<typeof ZVatSummaryView>;
export type TDocumentView = z.infer<typeof ZDocumentView>;
