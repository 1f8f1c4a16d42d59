import { warsawIso } from './kit';
import type { AuthOperation, InvoiceRecord, Session } from './state';

export const UPO_NS = 'http://upo.schematy.mf.gov.pl/KSeF/v4-3';
/** The real TE writes this suffix, which the v4-3 XSD's fixed value does not allow (README §1). */
export const RECEIVER_TE = 'Ministerstwo Finansów - środowisko testowe (TE)';
export const UPO_PAGE_SIZE = 10_000;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function header(session: Session, auth: AuthOperation | undefined): string {
  const proof = auth?.ksefTokenReference
    ? `<NumerReferencyjnyTokenaKSeF>${auth.ksefTokenReference}</NumerReferencyjnyTokenaKSeF>`
    : `<SkrotDokumentuUwierzytelniajacego>${auth?.documentDigest ?? ''}</SkrotDokumentuUwierzytelniajacego>`;
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<Potwierdzenie xmlns="${UPO_NS}">` +
    `<NazwaPodmiotuPrzyjmujacego>${RECEIVER_TE}</NazwaPodmiotuPrzyjmujacego>` +
    `<NumerReferencyjnySesji>${session.referenceNumber}</NumerReferencyjnySesji>` +
    `<Uwierzytelnienie><IdKontekstu><Nip>${session.nip}</Nip></IdKontekstu>${proof}</Uwierzytelnienie>`
  );
}

const FORM = '<NazwaStrukturyLogicznej>Schemat_FA(3)_v1-0E.xsd</NazwaStrukturyLogicznej><KodFormularza>FA (3)</KodFormularza>';

function documentEntry(session: Session, inv: InvoiceRecord): string {
  return (
    `<Dokument><NipSprzedawcy>${session.nip}</NipSprzedawcy><NumerKSeFDokumentu>${inv.ksefNumber}</NumerKSeFDokumentu>` +
    `<NumerFaktury>${esc(inv.invoiceNumber ?? '')}</NumerFaktury><DataWystawieniaFaktury>${inv.issueDate}</DataWystawieniaFaktury>` +
    `<DataPrzeslaniaDokumentu>${warsawIso(inv.invoicingDate)}</DataPrzeslaniaDokumentu>` +
    `<DataNadaniaNumeruKSeF>${warsawIso(inv.acquisitionDate ?? inv.invoicingDate)}</DataNadaniaNumeruKSeF>` +
    `<SkrotDokumentu>${inv.invoiceHash}</SkrotDokumentu><TrybWysylki>${inv.offline ? 'Offline' : 'Online'}</TrybWysylki></Dokument>`
  );
}

/** UPO of one accepted invoice (upo-v4-3 shape, as in the official per-invoice example). */
export const buildInvoiceUpo = (session: Session, auth: AuthOperation | undefined, inv: InvoiceRecord): string =>
  `${header(session, auth)}${FORM}${documentEntry(session, inv)}</Potwierdzenie>`;

/** One page of the session UPO: up to 10 000 accepted invoices, with the page description. */
export function buildSessionUpo(session: Session, auth: AuthOperation | undefined, page: number): string {
  const accepted = session.invoices.filter((i) => i.ksefNumber);
  const pages = Math.max(1, Math.ceil(accepted.length / UPO_PAGE_SIZE));
  const slice = accepted.slice((page - 1) * UPO_PAGE_SIZE, page * UPO_PAGE_SIZE);
  const from = (page - 1) * UPO_PAGE_SIZE + 1;
  return (
    `${header(session, auth)}<OpisPotwierdzenia><Strona>${page}</Strona><LiczbaStron>${pages}</LiczbaStron>` +
    `<ZakresDokumentowOd>${from}</ZakresDokumentowOd><ZakresDokumentowDo>${from + slice.length - 1}</ZakresDokumentowDo>` +
    `<CalkowitaLiczbaDokumentow>${accepted.length}</CalkowitaLiczbaDokumentow></OpisPotwierdzenia>` +
    `${FORM}${slice.map((i) => documentEntry(session, i)).join('')}</Potwierdzenie>`
  );
}
