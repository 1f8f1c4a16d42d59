import { X509Certificate } from 'node:crypto';
import { parseKodIIUrl, verifyKodIISignature } from '@/server/ksef/qr';
import { json, type Ctx } from './context';
import type { Reply } from './kit';
import type { InvoiceRecord, Session } from './state';

/**
 * The Ministry's public QR pages (kody-qr.md "Weryfikacja"), as JSON under /qr on the emulator: the same paths as
 * on qr-test.ksef.mf.gov.pl. There is no such REST API in KSeF itself; the emulator emulates TE, so KOD II
 * signatures are checked over the TE host name.
 */
export const QR_HOST = 'qr-test.ksef.mf.gov.pl';

const allInvoices = (ctx: Ctx): { session: Session; invoice: InvoiceRecord }[] =>
  [...ctx.state.sessions.values()].flatMap((session) => session.invoices.map((invoice) => ({ session, invoice })));

const dmyToIso = (dmy: string) => dmy.split('-').reverse().join('-');

/**
 * KOD I: does KSeF hold the invoice with this hash, for this seller and issue date? Accepted; technically corrected
 * (the replacement's KSeF number); or not in KSeF (an offline invoice not sent yet, or a false link).
 */
export function verifyInvoiceLink(ctx: Ctx): Reply {
  const { nip = '', date = '', hash = '' } = ctx.params;
  const invoiceHash = Buffer.from(hash, 'base64url').toString('base64');
  const issueDate = dmyToIso(date);
  const all = allInvoices(ctx);
  // a rejected file that a technical correction replaced reads as corrected, even if the new file has the same bytes
  const correction = all.find(({ session, invoice }) => session.nip === nip && invoice.hashOfCorrectedInvoice === invoiceHash && invoice.ksefNumber);
  if (correction) {
    return json(200, {
      status: 'TechnicallyCorrected',
      ksefNumber: correction.invoice.ksefNumber,
      invoicingMode: 'Offline',
      sellerNip: nip,
      issueDate: correction.invoice.issueDate,
      invoiceNumber: correction.invoice.invoiceNumber,
    });
  }
  const match = all.find(
    ({ session, invoice }) => invoice.invoiceHash === invoiceHash && session.nip === nip && invoice.issueDate === issueDate && invoice.ksefNumber,
  );
  if (match) {
    return json(200, {
      status: 'Accepted',
      ksefNumber: match.invoice.ksefNumber,
      invoicingMode: match.invoice.offline ? 'Offline' : 'Online',
      sellerNip: nip,
      issueDate,
      invoiceNumber: match.invoice.invoiceNumber,
    });
  }
  return json(200, { status: 'NotInKsef', description: 'Faktura nie została (jeszcze) przesłana do KSeF.', sellerNip: nip, issueDate });
}

/**
 * KOD II: the four checks of kody-qr.md: an Offline certificate with that serial exists and is valid (not revoked,
 * within validity); the signature verifies with its public key; its subject may issue invoices in the context (here:
 * the subject's NIP is the context NIP, as with Owner rights); the context may issue for the seller (here: the same NIP).
 */
export function verifyCertificateLink(ctx: Ctx): Reply {
  const path = ctx.path.replace(/^\/qr/, '');
  const parts = parseKodIIUrl(`https://${QR_HOST}${path}`);
  if (!parts) return json(200, { valid: false, checks: { format: false } });
  const cert = ctx.state.certificates.get(parts.certificateSerial);
  const now = Date.now();
  const certificateValid = Boolean(
    cert && cert.type === 'Offline' && cert.status === 'Active' && cert.validFrom.getTime() <= now && now < cert.validTo.getTime(),
  );
  const signatureValid = Boolean(cert && verifyKodIISignature(parts, new X509Certificate(cert.der).publicKey));
  const contextPermitted = Boolean(cert && parts.contextType === 'Nip' && cert.ownerNip === parts.contextValue);
  const sellerPermitted = parts.contextType === 'Nip' && parts.contextValue === parts.sellerNip;
  const checks = { format: true, certificateValid, signatureValid, contextPermitted, sellerPermitted };
  return json(200, {
    valid: Object.values(checks).every(Boolean),
    checks,
    ...(cert && {
      certificate: {
        serialNumber: cert.serialNumber,
        type: cert.type,
        status: cert.status,
        commonName: cert.commonName,
        validFrom: cert.validFrom.toISOString(),
        validTo: cert.validTo.toISOString(),
      },
    }),
  });
}
