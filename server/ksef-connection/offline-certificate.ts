import 'reflect-metadata'; // @peculiar/x509 resolves its services through tsyringe, which needs the polyfill
import { X509Certificate, createPrivateKey } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { Db } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { accountModes } from '@/server/db/schema';
import { AppError, type ErrorDetail, type ErrorParams } from '@/server/errors';
import { sealJson, unsealJson } from '@/server/security/sealed-json';
import type { CertificateUpload } from './certificate-upload';
import { readCertificate } from './read-certificate';

/** A KSeF certificate of type Offline: signs KOD II only (kody-qr.md); never used to log in. */
export type OfflineCertificate = { certificatePem: string; privateKeyPem: string; serial: string; validFrom: Date; validTo: Date };

/** The dashboard warns this long before the certificate expires. */
export const EXPIRY_WARNING_MS = 30 * 86_400_000;

const invalid = (param: string, detail: ErrorDetail, params?: ErrorParams) => AppError.detailed('parameter_invalid', param, detail, params);

/** KSeF's serial: the X.509 serial as 16 upper-case hex digits (OAS certificateSerialNumber `^[0-9A-F]{16}$`). */
const serialOf = (cert: X509Certificate) => cert.serialNumber.toUpperCase().padStart(16, '0');

/**
 * Checks that a certificate can sign KOD II: an RSA (≥ 2048) or EC P-256 key, KSeF's 16-digit serial, Key Usage
 * Non-Repudiation (KSeF's Offline type; Authentication certificates carry Digital Signature only and must not be used
 * for KOD II, kody-qr.md), and valid now.
 */
export function checkOfflineCertificate(certificatePem: string, privateKeyPem: string, now: Date): OfflineCertificate {
  const cert = new X509Certificate(certificatePem);
  const key = createPrivateKey(privateKeyPem);
  const rsa = key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048;
  const ec = key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  if (!rsa && !ec) throw invalid('certificate', 'offline_key_type');
  const serial = serialOf(cert);
  if (!/^[0-9A-F]{16}$/.test(serial)) throw invalid('certificate', 'offline_serial', { serial: cert.serialNumber });
  const usage = new x509.X509Certificate(new Uint8Array(cert.raw)).getExtension(x509.KeyUsagesExtension);
  if (!usage || !(usage.usages & x509.KeyUsageFlags.nonRepudiation)) {
    throw invalid('certificate', 'offline_key_usage');
  }
  const validFrom = new Date(cert.validFrom);
  const validTo = new Date(cert.validTo);
  if (validTo <= now) throw invalid('certificate', 'certificate_expired', { date: validTo.toISOString() });
  if (validFrom > now) throw invalid('certificate', 'certificate_not_yet_valid', { date: validFrom.toISOString() });
  return { certificatePem: cert.toString(), privateKeyPem: key.export({ type: 'pkcs8', format: 'pem' }).toString(), serial, validFrom, validTo };
}

/** Upload (certificate + key, or .p12): read with the KSeF-credential reader, checked, sealed at rest. */
export async function uploadOfflineCertificate(db: Db, scope: Scope, upload: CertificateUpload, now = new Date()): Promise<OfflineCertificate> {
  const pair = readCertificate(upload);
  const checked = checkOfflineCertificate(pair.certificatePem, pair.privateKeyPem, now);
  await saveOfflineCertificate(db, scope, checked, 'upload');
  return checked;
}

export async function saveOfflineCertificate(db: Db, scope: Scope, cert: OfflineCertificate, source: 'upload' | 'enrolment'): Promise<void> {
  await db
    .update(accountModes)
    .set({
      offlineCertificate: sealJson({ certificatePem: cert.certificatePem, privateKeyPem: cert.privateKeyPem }),
      offlineCertificateSerial: cert.serial,
      offlineCertificateValidFrom: cert.validFrom,
      offlineCertificateValidTo: cert.validTo,
      offlineCertificateSource: source,
      offlineEnrolment: null,
      offlineEnrolmentError: null,
      updatedAt: new Date(),
    })
    .where(inScope(accountModes, scope));
}

export type OfflineCertificateState =
  | { state: 'missing'; reason: string }
  | { state: 'expired' | 'not_yet_valid'; reason: string; serial: string; validFrom: Date; validTo: Date }
  | { state: 'valid' | 'expiring'; serial: string; validFrom: Date; validTo: Date; warning?: string };

type CertificateColumns = { offlineCertificateSerial: string | null; offlineCertificateValidFrom: Date | null; offlineCertificateValidTo: Date | null };

/** What the dashboard shows, and whether offline issuing may be on: valid, expiring within 30 days (warned), or why not. */
export function offlineCertificateState(row: CertificateColumns, now: Date): OfflineCertificateState {
  const { offlineCertificateSerial: serial, offlineCertificateValidFrom: validFrom, offlineCertificateValidTo: validTo } = row;
  if (!serial || !validFrom || !validTo) return { state: 'missing', reason: 'No KSeF Offline certificate: upload one or enrol one through KSeF.' };
  if (validTo <= now) return { state: 'expired', reason: `The Offline certificate ${serial} expired on ${validTo.toISOString()}.`, serial, validFrom, validTo };
  if (validFrom > now)
    return { state: 'not_yet_valid', reason: `The Offline certificate ${serial} is valid only from ${validFrom.toISOString()}.`, serial, validFrom, validTo };
  if (validTo.getTime() - now.getTime() <= EXPIRY_WARNING_MS) {
    return {
      state: 'expiring',
      serial,
      validFrom,
      validTo,
      warning: `The Offline certificate ${serial} expires on ${validTo.toISOString()}: enrol or upload a new one.`,
    };
  }
  return { state: 'valid', serial, validFrom, validTo };
}

/** The signing material for KOD II, or null with the reason when there is no usable certificate. */
export async function loadOfflineSigner(db: Db, scope: Scope, now: Date): Promise<{ signer: OfflineCertificate } | { signer: null; reason: string }> {
  const [row] = await db.select().from(accountModes).where(inScope(accountModes, scope));
  if (!row) return { signer: null, reason: 'no such account mode' };
  const state = offlineCertificateState(row, now);
  if ('reason' in state) return { signer: null, reason: state.reason };
  const sealed = unsealJson<{ certificatePem: string; privateKeyPem: string }>(row.offlineCertificate!);
  return { signer: { ...sealed, serial: state.serial, validFrom: state.validFrom, validTo: state.validTo } };
}
