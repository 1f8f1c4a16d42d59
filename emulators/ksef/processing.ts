import { randomBytes } from 'node:crypto';
import { formatKsefNumber } from '@/server/ksef/ksef-number';
import { validateXml } from '@/server/ksef/xsd';
import type { FaultRule } from './faults';
import { readInvoiceFields } from './invoice-fields';
import { newReferenceNumber, warsawDate, warsawDay } from './kit';
import { bump, later, type EmulatorState, type InvoiceRecord, type Session, type StatusInfo } from './state';

export const INVOICE_STATUS = {
  received: { code: 100, description: 'Faktura przyjęta do dalszego przetwarzania' },
  processing: { code: 150, description: 'Trwa przetwarzanie' },
  ok: { code: 200, description: 'Sukces' },
} as const;

const rejected = (code: number, description: string, details: string[], extensions?: Record<string, string>): StatusInfo => ({
  code,
  description,
  details,
  ...(extensions ? { extensions } : {}),
});

/** "1 MB = 1 000 000 B" per invoice without attachments (ksef-docs limity/limity.md, shared/ksef/README.md §7), not 1 MiB. */
export const MAX_INVOICE_BYTES = 1_000_000;

const CORRECTION_KINDS = new Set(['KOR', 'KOR_ZAL', 'KOR_ROZ']);
/** Discouraged code points KSeF refuses (README §7): W3C XML 1.0 §2.2, including the last two of every plane 1–16. */
const DISCOURAGED =
  /[\u007F-\u0084\u0086-\u009F\uFDD0-\uFDEF]|[\u{1FFFE}\u{1FFFF}\u{2FFFE}\u{2FFFF}\u{3FFFE}\u{3FFFF}\u{4FFFE}\u{4FFFF}\u{5FFFE}\u{5FFFF}\u{6FFFE}\u{6FFFF}\u{7FFFE}\u{7FFFF}\u{8FFFE}\u{8FFFF}\u{9FFFE}\u{9FFFF}\u{AFFFE}\u{AFFFF}\u{BFFFE}\u{BFFFF}\u{CFFFE}\u{CFFFF}\u{DFFFE}\u{DFFFF}\u{EFFFE}\u{EFFFF}\u{FFFFE}\u{FFFFF}\u{10FFFE}\u{10FFFF}]/u;

/** KSeF's checks in order (README §7, §14): bytes, schema, context, issue date, corrections, duplicates. */
function verdict(state: EmulatorState, session: Session, inv: InvoiceRecord, xml: Buffer, now: Date): StatusInfo | { accept: true } {
  // an online session refuses the size at once (21402); a file of a batch is refused here
  if (xml.length > MAX_INVOICE_BYTES) return rejected(450, 'Błąd weryfikacji semantyki dokumentu faktury', [`Faktura przekracza ${MAX_INVOICE_BYTES} bajtów.`]);
  if (xml[0] === 0xef && xml[1] === 0xbb && xml[2] === 0xbf)
    return rejected(450, 'Błąd weryfikacji semantyki dokumentu faktury', ['Plik zawiera znacznik BOM; wymagane UTF-8 bez BOM.']);
  const text = xml.toString('utf8');
  if (/<\?(?!xml\s)[A-Za-z]/.test(text) || DISCOURAGED.test(text)) {
    return rejected(450, 'Błąd weryfikacji semantyki dokumentu faktury', ['Dokument zawiera instrukcje przetwarzania lub niedozwolone znaki.']);
  }
  const schema = validateXml(xml, 'fa3');
  if (!schema.ok) return rejected(450, 'Błąd weryfikacji semantyki dokumentu faktury', [schema.message]);
  const fields = readInvoiceFields(text);
  inv.invoiceNumber = fields.number;
  inv.kind = fields.kind;
  inv.issueDate = fields.issueDate;
  // Automatic offline classification (offline/automatyczne-okreslanie-trybu-offline.md): P_1's calendar day earlier
  // than the day KSeF took the invoice (sending, or a batch session's opening) makes it Offline even if undeclared.
  if (fields.issueDate && fields.issueDate < warsawDate(inv.invoicingDate)) inv.offline = true;
  if (fields.sellerNip !== session.nip) {
    return rejected(410, 'Nieprawidłowy zakres uprawnień', [`NIP sprzedawcy ${fields.sellerNip} nie odpowiada kontekstowi ${session.nip}.`]);
  }
  if (fields.issueDate && fields.issueDate > warsawDate(now)) {
    return rejected(450, 'Błąd weryfikacji semantyki dokumentu faktury', [`Data wystawienia (P_1) ${fields.issueDate} jest późniejsza niż data przyjęcia.`]);
  }
  // automatic offline: P_1's day before the day of invoicingDate (ksef-docs offline/automatyczne-okreslanie-trybu-offline.md)
  if (fields.issueDate && fields.issueDate < warsawDate(inv.invoicingDate)) inv.offline = true;
  if (fields.kind && CORRECTION_KINDS.has(fields.kind)) {
    const unknown = fields.correctedKsefNumbers.filter((n) => !state.byKsefNumber.has(n));
    if (unknown.length)
      return rejected(
        450,
        'Błąd weryfikacji semantyki dokumentu faktury',
        unknown.map((n) => `Faktura korygowana o numerze KSeF ${n} nie istnieje.`),
      );
  }
  const original = state.uniqueness.get(`${fields.sellerNip}|${fields.kind}|${fields.number}`);
  if (original) {
    return rejected(440, 'Duplikat faktury', [`Faktura o numerze ${fields.number} została już przyjęta z numerem KSeF ${original.invoice.ksefNumber}.`], {
      originalSessionReferenceNumber: original.session.referenceNumber,
      originalKsefNumber: original.invoice.ksefNumber ?? '',
    });
  }
  return { accept: true };
}

function newKsefNumber(state: EmulatorState, nip: string, now: Date): string {
  for (;;) {
    const n = formatKsefNumber(nip, warsawDay(now), randomBytes(6).toString('hex').toUpperCase());
    if (!state.byKsefNumber.has(n)) return n;
  }
}

function settle(state: EmulatorState, session: Session, inv: InvoiceRecord, xml: Buffer, forced: FaultRule | undefined): void {
  const now = new Date();
  const v = verdict(state, session, inv, xml, now);
  if ('accept' in v && forced?.kind === 'reject') {
    inv.status = rejected(forced.rejectCode ?? 450, forced.rejectCode === 500 ? 'Nieznany błąd' : 'Błąd weryfikacji semantyki dokumentu faktury', [
      forced.rejectDetail ?? 'Odrzucenie wymuszone przez emulator.',
    ]);
  } else if ('accept' in v) {
    inv.ksefNumber = newKsefNumber(state, session.nip, now);
    inv.acquisitionDate = now;
    inv.status = INVOICE_STATUS.ok;
    inv.xml = xml;
    const entry = { session, invoice: inv };
    state.byKsefNumber.set(inv.ksefNumber, entry);
    state.uniqueness.set(`${session.nip}|${inv.kind}|${inv.invoiceNumber}`, entry);
  } else {
    inv.status = v;
  }
  if (inv.status.code === 200) state.counters.accepted++;
  else state.counters.rejected++;
  session.pending--;
  session.dateUpdated = now;
  finishSessionIfDone(session);
}

/**
 * Queues an invoice for asynchronous processing: status 150 until the processing delay (plus any injected
 * 'stuck' time) has passed, then a final status. With no delay the verdict is immediate.
 */
export function enqueueInvoice(state: EmulatorState, session: Session, inv: InvoiceRecord, xml: Buffer, faults: FaultRule[]): void {
  session.pending++;
  if (inv.invoiceNumber) bump(state.counters.invoiceNumbers, inv.invoiceNumber);
  bump(state.counters.invoiceHashes, inv.invoiceHash);
  const stuck = faults.find((f) => f.kind === 'stuck');
  const forced = faults.find((f) => f.kind === 'reject');
  inv.status = INVOICE_STATUS.processing;
  later(state, state.processingDelayMs + (stuck?.stuckSeconds ?? 0) * 1000, () => settle(state, session, inv, xml, forced));
}

export const SESSION_STATUS = {
  online: {
    open: { code: 100, description: 'Sesja interaktywna otwarta' },
    closed: { code: 170, description: 'Sesja interaktywna zamknięta' },
  },
  batch: {
    open: { code: 100, description: 'Sesja wsadowa rozpoczęta' },
    processing: { code: 150, description: 'Trwa przetwarzanie' },
  },
  done: { code: 200, description: 'Sesja przetworzona pomyślnie' },
  cancelled: { code: 440, description: 'Sesja anulowana', details: ['Nie przesłano faktur.'] } as StatusInfo,
  noValid: { code: 445, description: 'Błąd weryfikacji, brak poprawnych faktur' },
  keyDecryption: { code: 415, description: 'Błąd odszyfrowania dostarczonego klucza' },
} as const;

/** A closed session becomes final once nothing is pending: 200 with UPO, 445 with no valid invoice, 440 when empty. */
export function finishSessionIfDone(session: Session): void {
  if (!session.closed || session.pending > 0 || ![150, 170].includes(session.status.code)) return;
  const accepted = session.invoices.filter((i) => i.status.code === 200).length;
  if (session.invoices.length === 0) session.status = SESSION_STATUS.cancelled;
  else if (accepted === 0) session.status = SESSION_STATUS.noValid;
  else {
    session.status = SESSION_STATUS.done;
    const pages = Math.max(1, Math.ceil(accepted / 10_000));
    session.upoReferences = Array.from({ length: pages }, () => newReferenceNumber('EU'));
  }
  session.dateUpdated = new Date();
}
