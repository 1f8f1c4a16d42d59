import * as auth from './auth';
import * as batch from './batch';
import * as certificates from './certificates';
import * as control from './control';
import * as lighthouse from './lighthouse';
import * as credentials from './credentials';
import { queryMetadata } from './invoice-query';
import type { Handler } from './context';
import { json } from './context';
import { publicKeyCertificates } from './keys';
import { verifyCertificateLink, verifyInvoiceLink } from './qr-verification';
import * as sessions from './sessions';

/**
 * Where a route lives: the KSeF API under /v2, our control endpoints, pre-signed storage links, the QR pages under /qr,
 * or the status service (Latarnia) under /latarnia.
 */
export type Area = 'api' | 'control' | 'storage' | 'qr' | 'latarnia';

/** One route: its operation name (used by fault rules and counters) and its rate-limit group (README §11). */
export type Route = { area: Area; method: string; pattern: RegExp; op: string; group: string; handler: Handler };

const compile = (path: string) => new RegExp(`^${path.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`);
const api = (method: string, path: string, op: string, group: string, handler: Handler): Route => ({
  area: 'api',
  method,
  pattern: compile(path),
  op,
  group,
  handler,
});
const internal = (area: Area, method: string, path: string, op: string, handler: Handler): Route => ({
  area,
  method,
  pattern: compile(path),
  op,
  group: 'none',
  handler,
});

export const ROUTES: Route[] = [
  api('GET', '/security/public-key-certificates', 'getPublicKeyCertificates', 'public', (ctx) => json(200, publicKeyCertificates(ctx.state.keys))),
  api('POST', '/auth/challenge', 'authChallenge', 'public', auth.challenge),
  api('POST', '/auth/ksef-token', 'authKsefToken', 'public', auth.ksefTokenAuth),
  api('POST', '/auth/xades-signature', 'authXadesSignature', 'public', auth.xadesAuth),
  api('POST', '/auth/token/redeem', 'authRedeem', 'public', auth.redeem),
  api('POST', '/auth/token/refresh', 'authRefresh', 'public', auth.refresh),
  api('GET', '/auth/{ref}', 'authStatus', 'public', auth.authStatus),
  api('POST', '/tokens', 'generateToken', 'other', credentials.generateToken),
  api('GET', '/tokens/{ref}', 'tokenStatus', 'other', credentials.tokenStatus),
  api('DELETE', '/tokens/{ref}', 'revokeToken', 'other', credentials.revokeToken),
  api('POST', '/testdata/context/block', 'testdataContextBlock', 'public', credentials.blockContext(true)),
  api('POST', '/testdata/context/unblock', 'testdataContextUnblock', 'public', credentials.blockContext(false)),
  api('POST', '/testdata/subject', 'testdataSubject', 'public', credentials.acceptTestData),
  api('POST', '/testdata/person', 'testdataPerson', 'public', credentials.acceptTestData),
  api('POST', '/testdata/permissions', 'testdataPermissions', 'public', credentials.acceptTestData),
  api('GET', '/certificates/limits', 'getCertificateLimits', 'other', certificates.certificateLimits),
  api('GET', '/certificates/enrollments/data', 'getCertificateEnrollmentData', 'other', certificates.enrollmentDataHandler),
  api('POST', '/certificates/enrollments', 'enrollCertificate', 'other', certificates.enroll),
  api('GET', '/certificates/enrollments/{ref}', 'getCertificateEnrollmentStatus', 'other', certificates.enrollmentStatus),
  api('POST', '/certificates/retrieve', 'retrieveCertificates', 'other', certificates.retrieveCertificates),
  api('POST', '/certificates/{serial}/revoke', 'revokeCertificate', 'other', certificates.revokeCertificate),
  api('POST', '/sessions/online', 'openOnlineSession', 'onlineSession', sessions.openOnlineSession),
  api('POST', '/sessions/online/{ref}/invoices', 'sendInvoice', 'invoiceSend', sessions.sendInvoice),
  api('POST', '/sessions/online/{ref}/close', 'closeOnlineSession', 'onlineSessionClose', sessions.closeOnlineSession),
  api('POST', '/sessions/batch', 'openBatchSession', 'batchSession', batch.openBatchSession),
  api('POST', '/sessions/batch/{ref}/close', 'closeBatchSession', 'batchSessionClose', batch.closeBatchSession),
  api('GET', '/sessions/{ref}', 'getSessionStatus', 'sessionMisc', sessions.sessionStatus),
  api('GET', '/sessions/{ref}/invoices', 'getSessionInvoices', 'sessionInvoiceList', sessions.listSessionInvoices),
  api('GET', '/sessions/{ref}/invoices/failed', 'getSessionFailedInvoices', 'sessionInvoiceList', sessions.listFailedInvoices),
  api('GET', '/sessions/{ref}/invoices/ksef/{ksefNumber}/upo', 'getInvoiceUpoByKsefNumber', 'sessionMisc', sessions.invoiceUpoByKsefNumber),
  api('GET', '/sessions/{ref}/invoices/{invoiceRef}/upo', 'getInvoiceUpo', 'sessionMisc', sessions.invoiceUpoByReference),
  api('GET', '/sessions/{ref}/invoices/{invoiceRef}', 'getInvoiceStatus', 'invoiceStatus', sessions.invoiceStatus),
  api('GET', '/sessions/{ref}/upo/{upoRef}', 'getSessionUpo', 'sessionMisc', sessions.sessionUpoPage),
  api('GET', '/invoices/ksef/{ksefNumber}', 'getInvoiceByKsefNumber', 'invoiceDownload', sessions.downloadInvoice),
  api('POST', '/invoices/query/metadata', 'queryInvoiceMetadata', 'invoiceMetadata', queryMetadata),
  internal('storage', 'PUT', '/storage/batch/{ref}/{ordinal}', 'uploadBatchPart', batch.uploadPart),
  internal('storage', 'GET', '/storage/upo/{ref}/{id}', 'downloadUpo', sessions.presignedUpo),
  internal('qr', 'GET', '/qr/invoice/{nip}/{date}/{hash}', 'qrVerifyInvoice', verifyInvoiceLink),
  internal('qr', 'GET', '/qr/certificate/{ctxType}/{ctxValue}/{nip}/{serial}/{hash}/{signature}', 'qrVerifyCertificate', verifyCertificateLink),
  internal('control', 'POST', '/control/credentials', 'controlCredentials', control.createCredentials),
  internal('control', 'POST', '/control/certificate-credentials', 'controlCertificateCredentials', control.createCertificateCredentials),
  internal('control', 'PUT', '/control/faults', 'controlSetFaults', control.putFaults),
  internal('control', 'DELETE', '/control/faults', 'controlClearFaults', control.clearFaults),
  internal('control', 'PUT', '/control/limits', 'controlLimits', control.putLimits),
  internal('control', 'PUT', '/control/processing', 'controlProcessing', control.putProcessing),
  internal('control', 'PUT', '/control/lifetimes', 'controlLifetimes', control.putLifetimes),
  internal('control', 'GET', '/control/counters', 'controlCounters', control.getCounters),
  internal('control', 'PUT', '/control/lighthouse', 'controlLighthouse', lighthouse.putLighthouse),
  internal('latarnia', 'GET', '/latarnia/status', 'lighthouseStatus', lighthouse.lighthouseStatus),
  internal('latarnia', 'GET', '/latarnia/messages', 'lighthouseMessages', lighthouse.lighthouseMessages),
];

export function findRoute(area: Area, method: string, path: string): { route: Route; params: Record<string, string> } | 'method' | undefined {
  let pathMatched = false;
  for (const route of ROUTES) {
    if (route.area !== area) continue;
    const m = route.pattern.exec(path);
    if (!m) continue;
    pathMatched = true;
    if (route.method === method) return { route, params: { ...m.groups } };
  }
  return pathMatched ? 'method' : undefined;
}
