import { fillTemplate, type TemplateParams } from '@/server/template';

/**
 * Every warning a document can carry: its code (what the timeline and search show) and its English text, `{name}`
 * filled from the warning's params. Pure: the English dashboard shows these texts, the Polish one translates them
 * by key (app/i18n/pl.ts), so a stored warning keeps its key and params beside the English message.
 */
export const WARNINGS = {
  invoice_late: {
    code: 'invoice_late',
    // art. 106i ust. 1-2 of the VAT act
    text: 'Issued {issueDate}, after {deadline}: the 15th of the month after the delivery or an earlier payment (art. 106i ust. 1-2 of the VAT act). The invoice is valid but late.',
  },
  buyer_address_incomplete: {
    code: 'buyer_address_incomplete',
    text: `The buyer's address "{address}" has no Polish postal code (NN-NNN) with a city; the invoice needs the buyer's full address (art. 106e ust. 1 pkt 3).`,
  },
  issue_date_moved: {
    code: 'issue_date_moved',
    text: 'Issue date moved from {from} to {to}, the day it was sent to KSeF (art. 106na ust. 1); the number stays.',
  },
  sent_offline_handed_out: {
    code: 'sent_offline',
    text: 'Issued {issued} but sent on {sent}: sent in offline mode (offline24, art. 106nda) because it may already have reached KSeF or the buyer as issued; KSeF must have it by {deadline}.',
  },
  sent_offline_numbered: {
    code: 'sent_offline',
    text: 'Issued {issued} but sent on {sent}: sent in offline mode (offline24, art. 106nda) because its number belongs to {period}; KSeF must have it by {deadline}.',
  },
} as const;

export type WarningText = keyof typeof WARNINGS;

/** A warning as documents store it: code, English message, and the key and params a dictionary translates. */
export const documentWarning = <T extends WarningText>(text: T, params: TemplateParams) => ({
  code: WARNINGS[text].code,
  message: fillTemplate(WARNINGS[text].text, params),
  text,
  params,
});
