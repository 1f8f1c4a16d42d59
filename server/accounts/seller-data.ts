import { z } from 'zod';
import { isValidNip, normalizeNip } from '@/server/orders/nip';
import { cleanText } from '@/server/orders/text';
import type { Seller } from '@/server/ksef/fa3/parts';

/** Nazwa, AdresL1 and AdresL2 of Podmiot1 are etd:TZnakowy512 (FA(3) schema, base types). */
const MAX_TEXT = 512;

/** Text the invoice must show: what is left after FA(3) cleaning (server/orders/text.ts) is not empty and fits. */
const requiredText = (what: string) =>
  z
    .string(`${what} is required`)
    .trim()
    .max(MAX_TEXT, `${what} takes at most ${MAX_TEXT} characters (FA(3) TZnakowy512)`)
    .refine((v) => cleanText(v, MAX_TEXT) !== '', `${what} is required`);

/**
 * The seller's data (FA(3) Podmiot1), one set of rules for every door it comes in by and for the prepare step that
 * uses it: the dashboard form, `cli account create` and document_prepare, so a seller that cannot make a valid
 * invoice never costs a number (DESIGN invariant 9). Art. 106e ust. 1 pkt 3 and 5 of the VAT act: the seller's name,
 * address and NIP are on every invoice; the NIP has the check digit of domain/nip.md and the FA(3) TNrNIP pattern.
 */
export const ZSellerData = z.object({
  nip: z
    .string('NIP is required')
    .transform(normalizeNip)
    .superRefine((nip, ctx) => {
      if (!isValidNip(nip)) ctx.addIssue({ code: 'custom', message: `${nip} is not a valid Polish NIP (10 digits, the last one the check digit)` });
    }),
  name: requiredText('Name'),
  address1: requiredText('Address line 1'),
  address2: z.string().trim().max(MAX_TEXT, `Address line 2 takes at most ${MAX_TEXT} characters (FA(3) TZnakowy512)`).optional(),
  /** metoda kasowa: FA(3) P_16 = 1 on every invoice and correction of the mode (art. 106e ust. 1 pkt 16) */
  cashAccounting: z.boolean().optional(),
});
export type SellerData = z.output<typeof ZSellerData>;

/** The stored columns a Seller is made of. */
export type SellerColumns = {
  sellerNip: string | null;
  sellerName: string | null;
  sellerAddress1: string | null;
  sellerAddress2: string | null;
  cashAccounting: boolean;
};

export type SellerCheck = { ok: true; seller: Seller } | { ok: false; problem: string };

/** `field: message` of each refused field, for a person to read (the CLI, `last_error`). */
export function describeSellerProblems(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'seller'}: ${i.message}`).join('; ');
}

/** Whether stored seller data makes a valid Podmiot1, and the Seller it makes (NIP normalised, texts trimmed). */
export function checkSeller(mode: SellerColumns): SellerCheck {
  if (!mode.sellerNip || !mode.sellerName || !mode.sellerAddress1) return { ok: false, problem: 'Seller NIP, name or address is missing in the account.' };
  const parsed = ZSellerData.safeParse({
    nip: mode.sellerNip,
    name: mode.sellerName,
    address1: mode.sellerAddress1,
    address2: mode.sellerAddress2 ?? undefined,
  });
  if (!parsed.success) return { ok: false, problem: `Seller data is invalid: ${describeSellerProblems(parsed.error)}.` };
  const { nip, name, address1, address2 } = parsed.data;
  return { ok: true, seller: { nip, name, address1, address2: address2 || null, cashAccounting: mode.cashAccounting } };
}
