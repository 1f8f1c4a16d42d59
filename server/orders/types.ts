import { z } from 'zod';
import { VAT_RATES } from '@/server/facts/vat-rates';
import { SUPPORTED_CURRENCIES } from './currencies';

/**
 * The normalised order and refund: what /v1 input and the shop-platform mapping both become, what the
 * documents table stores and what the FA(3) builder reads. Amounts are integer grosze of the order currency,
 * all gross (VAT included); date-times are ISO 8601 UTC text. Stored copies are parsed back with these schemas.
 */
const ZGrosze = z.number().int().safe();
const ZVatRate = z.union(VAT_RATES.map((r) => z.literal(r)));
const ZIsoInstant = z.iso.datetime({ offset: true });

export const PAYMENT_METHODS = ['card', 'transfer', 'cash', 'mobile'] as const;
export const ZPaymentMethod = z.enum(PAYMENT_METHODS);
export type PaymentMethod = z.infer<typeof ZPaymentMethod>;

/**
 * The unit a JST or VAT-group invoice concerns (FA(3) Podmiot3 with Rola 8 / 10): its own NIP, name and address,
 * while `nip` of the buyer is the local-government body or the VAT group itself (tax-rules.md §6).
 */
export const ZNormalizedRecipient = z.object({
  nip: z.string().regex(/^\d{10}$/),
  name: z.string().min(1),
  address1: z.string().min(1),
  address2: z.string().nullable(),
});

export const ZNormalizedBuyer = z.object({
  /** 10 digits, checksum verified */
  nip: z.string().regex(/^\d{10}$/),
  name: z.string().min(1),
  /** street and number */
  address1: z.string().min(1),
  /** postal code and city */
  address2: z.string().nullable(),
  /** ISO alpha-2, PL unless the shop says otherwise */
  countryCode: z.string().regex(/^[A-Z]{2}$/),
  email: z.string().nullable(),
  /** the shop's customer id, printed as NrKlienta */
  customerNumber: z.string().nullable(),
  /** the invoice concerns a subordinate unit of a local-government body (Podmiot2/JST = 1, Podmiot3 Rola 8) */
  jst: z.boolean().default(false),
  /** the invoice concerns a member of a VAT group (Podmiot2/GV = 1, Podmiot3 Rola 10) */
  vatGroup: z.boolean().default(false),
  /** the JST unit or VAT-group member; required when jst or vatGroup */
  recipient: ZNormalizedRecipient.nullable().default(null),
});

export const ZNormalizedLine = z.object({
  /** stable row id from the source system (FA(3) UU_ID, ≤ 50 chars), e.g. WC-4817-1001 */
  ref: z.string().nullable(),
  name: z.string().min(1),
  sku: z.string().nullable(),
  quantity: z.number().int().positive(),
  /**
   * gross unit price before the line discount: (grossGrosze + discountGrosze) / quantity, rounded to the grosz when a
   * shop's line value does not divide by its quantity (7 items for 86.01); P_9B then prints the exact quotient
   */
  unitPriceGrosze: ZGrosze.nonnegative(),
  /** gross discount of the whole line (a coupon or a discount the seller granted; never a rounding) */
  discountGrosze: ZGrosze.nonnegative(),
  /** the amount charged for the line */
  grossGrosze: ZGrosze.nonnegative(),
  vatRate: ZVatRate,
  /** goods or services of annex 15 to the VAT act (FA(3) P_12_Zal_15; split payment above 15,000 PLN) */
  annex15: z.boolean().default(false),
});

export const ZNormalizedShipping = z.object({
  ref: z.string().nullable(),
  name: z.string().min(1),
  /** above zero: free shipping is not a row */
  grossGrosze: ZGrosze.positive(),
  vatRate: ZVatRate,
});

export const ZNormalizedOrder = z.object({
  externalId: z.string().min(1),
  /** printed as the order number (WarunkiTransakcji/Zamowienia) */
  number: z.string().min(1),
  createdAt: ZIsoInstant.nullable(),
  /** the tax point and the NBP rate date follow it */
  paidAt: ZIsoInstant,
  /** Warsaw date the goods were delivered or the service completed; P_6 follows it when given */
  deliveredAt: z.iso.date().nullable().default(null),
  currency: z.enum(SUPPORTED_CURRENCIES),
  paymentMethod: ZPaymentMethod,
  buyer: ZNormalizedBuyer,
  lines: z.array(ZNormalizedLine).min(1),
  shipping: z.array(ZNormalizedShipping),
});

export const ZNormalizedRefundLine = z.object({
  /** row id of the refund in the source system (UU_ID of the KOR row) */
  ref: z.string().nullable(),
  /** `ref` of the invoice line it returns, when the source system links them; else matched by name, sku and rate */
  invoiceLineRef: z.string().nullable(),
  name: z.string().min(1),
  sku: z.string().nullable(),
  /** returned items, positive */
  quantity: z.number().int().positive(),
  /** gross unit price refunded per item */
  unitPriceGrosze: ZGrosze.nonnegative(),
  vatRate: ZVatRate,
  /**
   * the items came back, but the shop kept this much of their refund as a restocking fee: the buyer gets
   * quantity × unitPriceGrosze − feeGrosze (API `restocking_fee`; a WooCommerce refund of items below their value);
   * absent is none
   */
  feeGrosze: ZGrosze.nonnegative().optional(),
});

export const ZNormalizedRefund = z.object({
  externalId: z.string().min(1),
  reason: z.string().nullable(),
  createdAt: ZIsoInstant.nullable(),
  lines: z.array(ZNormalizedRefundLine),
  /** refunded shipping, gross and positive; it takes the rate of the invoice's shipping */
  shippingGrosze: ZGrosze.positive().nullable(),
  shippingRef: z.string().nullable(),
});

export type NormalizedRecipient = z.infer<typeof ZNormalizedRecipient>;
export type NormalizedBuyer = z.infer<typeof ZNormalizedBuyer>;
export type NormalizedLine = z.infer<typeof ZNormalizedLine>;
export type NormalizedShipping = z.infer<typeof ZNormalizedShipping>;
export type NormalizedOrder = z.infer<typeof ZNormalizedOrder>;
export type NormalizedRefundLine = z.infer<typeof ZNormalizedRefundLine>;
export type NormalizedRefund = z.infer<typeof ZNormalizedRefund>;
