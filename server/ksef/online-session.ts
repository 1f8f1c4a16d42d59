import type { KsefClient } from './client';
import { encryptAes, encryptRsaOaep, newSessionKey, parseKsefCertificate, sha256Base64, type SessionKey } from './crypto';

/** An open session; the key and IV are Base64 so the caller can store them (sealed) and resume after a restart. */
export type OnlineSession = { referenceNumber: string; validUntil: Date; aesKey: string; iv: string };

export type StatusInfo = { code: number; description: string; details?: string[] | null; extensions?: Record<string, string> | null };

export type InvoiceStatus = {
  ordinalNumber: number;
  invoiceNumber?: string | null;
  ksefNumber?: string | null;
  referenceNumber: string;
  invoiceHash: string;
  acquisitionDate?: string | null;
  invoicingDate: string;
  upoDownloadUrl?: string | null;
  invoicingMode?: 'Online' | 'Offline';
  status: StatusInfo;
};

export type SessionStatus = {
  status: StatusInfo;
  dateCreated: string;
  dateUpdated: string;
  validUntil?: string | null;
  upo?: { pages: { referenceNumber: string; downloadUrl: string; downloadUrlExpirationDate: string }[] } | null;
  invoiceCount?: number | null;
  successfulInvoiceCount?: number | null;
  failedInvoiceCount?: number | null;
};

export const FA3_FORM_CODE = { systemCode: 'FA (3)', schemaVersion: '1-0E', value: 'FA' } as const;

const keyOf = (s: OnlineSession): SessionKey => ({ key: Buffer.from(s.aesKey, 'base64'), iv: Buffer.from(s.iv, 'base64') });

/** The wrapped AES key for POST /sessions/online and /sessions/batch (README §6.1). */
export async function sessionEncryption(client: KsefClient, key: SessionKey) {
  const cert = await client.publicKey('SymmetricKeyEncryption');
  return {
    encryptedSymmetricKey: encryptRsaOaep(parseKsefCertificate(cert.certificate).publicKey, key.key).toString('base64'),
    initializationVector: key.iv.toString('base64'),
    publicKeyId: cert.publicKeyId,
  };
}

export async function openOnlineSession(client: KsefClient, accessToken: string): Promise<OnlineSession> {
  const key = newSessionKey();
  const res = await client.http.json<{ referenceNumber: string; validUntil: string }>({
    method: 'POST',
    path: '/sessions/online',
    bearer: accessToken,
    json: { formCode: FA3_FORM_CODE, encryption: await sessionEncryption(client, key) },
  });
  return { referenceNumber: res.referenceNumber, validUntil: new Date(res.validUntil), aesKey: key.key.toString('base64'), iv: key.iv.toString('base64') };
}

/** Sends the exact bytes given; invoiceHash is their SHA-256, the same digest the KOD I QR code uses. */
export async function sendInvoice(
  client: KsefClient,
  accessToken: string,
  session: OnlineSession,
  xml: string | Uint8Array,
  /** offlineMode declares an offline invoice; hashOfCorrectedInvoice (with offlineMode) makes it a technical correction (README §6.3, §6.6). */
  opts: { offlineMode?: boolean; hashOfCorrectedInvoice?: string | null } = {},
): Promise<{ invoiceReferenceNumber: string; invoiceHash: string }> {
  const plain = typeof xml === 'string' ? Buffer.from(xml, 'utf8') : Buffer.from(xml);
  const cipher = encryptAes(plain, keyOf(session));
  const invoiceHash = sha256Base64(plain);
  const res = await client.http.json<{ referenceNumber: string }>({
    method: 'POST',
    path: `/sessions/online/${session.referenceNumber}/invoices`,
    bearer: accessToken,
    json: {
      invoiceHash,
      invoiceSize: plain.length,
      encryptedInvoiceHash: sha256Base64(cipher),
      encryptedInvoiceSize: cipher.length,
      encryptedInvoiceContent: cipher.toString('base64'),
      offlineMode: opts.offlineMode ?? false,
      ...(opts.hashOfCorrectedInvoice ? { hashOfCorrectedInvoice: opts.hashOfCorrectedInvoice } : {}),
    },
  });
  return { invoiceReferenceNumber: res.referenceNumber, invoiceHash };
}

export const getInvoiceStatus = (client: KsefClient, accessToken: string, sessionRef: string, invoiceRef: string) =>
  client.http.json<InvoiceStatus>({ method: 'GET', path: `/sessions/${sessionRef}/invoices/${invoiceRef}`, bearer: accessToken });

export const getSessionStatus = (client: KsefClient, accessToken: string, sessionRef: string) =>
  client.http.json<SessionStatus>({ method: 'GET', path: `/sessions/${sessionRef}`, bearer: accessToken });

export async function closeOnlineSession(client: KsefClient, accessToken: string, sessionRef: string): Promise<void> {
  await client.http.send({ method: 'POST', path: `/sessions/online/${sessionRef}/close`, bearer: accessToken });
}

/** The UPO XML of one accepted invoice. */
export async function getInvoiceUpo(client: KsefClient, accessToken: string, sessionRef: string, invoiceRef: string): Promise<string> {
  const res = await client.http.send({
    method: 'GET',
    path: `/sessions/${sessionRef}/invoices/${invoiceRef}/upo`,
    bearer: accessToken,
    headers: { accept: 'application/xml' },
  });
  return res.text;
}

/** A page of the session UPO, once the closed session reached status 200. */
export async function getSessionUpo(client: KsefClient, accessToken: string, sessionRef: string, upoRef: string): Promise<string> {
  const res = await client.http.send({
    method: 'GET',
    path: `/sessions/${sessionRef}/upo/${upoRef}`,
    bearer: accessToken,
    headers: { accept: 'application/xml' },
  });
  return res.text;
}

/** Every invoice of a session, following continuation tokens; `failedOnly` reads /invoices/failed. */
export async function listSessionInvoices(client: KsefClient, accessToken: string, sessionRef: string, failedOnly = false): Promise<InvoiceStatus[]> {
  const out: InvoiceStatus[] = [];
  let continuation: string | null | undefined;
  do {
    const page = await client.http.json<{ continuationToken?: string | null; invoices: InvoiceStatus[] }>({
      method: 'GET',
      path: `/sessions/${sessionRef}/invoices${failedOnly ? '/failed' : ''}`,
      bearer: accessToken,
      query: { pageSize: 1000 },
      headers: continuation ? { 'x-continuation-token': continuation } : {},
    });
    out.push(...page.invoices);
    continuation = page.continuationToken;
  } while (continuation);
  return out;
}
