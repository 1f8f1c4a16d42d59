import { zipSync } from 'fflate';
import type { KsefClient } from './client';
import { encryptAes, newSessionKey, sha256Base64 } from './crypto';
import { FA3_FORM_CODE, sessionEncryption } from './online-session';
import { tarGzSync } from './tar-gz';

/** A part of at most 100 000 000 bytes before encryption (README §8). */
export const MAX_PART_BYTES = 100_000_000;

export type BatchInvoice = { fileName: string; xml: string | Uint8Array };
export type OpenedBatch = { referenceNumber: string; invoiceHashes: Record<string, string> };

/** `batchFile.compressionType` of POST /sessions/batch (OpenAPI 2.6.0 `CompressionType`; absent means Zip). */
export type CompressionType = 'Zip' | 'TarGz';

/**
 * The package archive: TarGz when it is smaller than the Zip, as the 2.6.0 changelog recommends for many similar
 * XML files (one gzip stream sees the repetition across invoices); Zip, KSeF's default, otherwise.
 */
export function packInvoices(files: Record<string, Uint8Array>, only?: CompressionType): { archive: Buffer; compressionType: CompressionType } {
  const zip = only === 'TarGz' ? undefined : Buffer.from(zipSync(files));
  const tarGz = only === 'Zip' ? undefined : tarGzSync(files);
  if (!zip || (tarGz && tarGz.length < zip.length)) return { archive: tarGz!, compressionType: 'TarGz' };
  return { archive: zip, compressionType: 'Zip' };
}

/** The archive of the invoices, split into parts, each part encrypted with the session key (README §8). */
export function buildBatchPackage(invoices: BatchInvoice[], partBytes = MAX_PART_BYTES, only?: CompressionType) {
  const files: Record<string, Uint8Array> = {};
  const invoiceHashes: Record<string, string> = {};
  for (const inv of invoices) {
    const bytes = typeof inv.xml === 'string' ? Buffer.from(inv.xml, 'utf8') : inv.xml;
    files[inv.fileName] = bytes;
    invoiceHashes[inv.fileName] = sha256Base64(bytes);
  }
  const { archive, compressionType } = packInvoices(files, only);
  const key = newSessionKey();
  const parts: Buffer[] = [];
  for (let at = 0; at < archive.length; at += partBytes) parts.push(encryptAes(archive.subarray(at, at + partBytes), key));
  return { archive, compressionType, key, parts, invoiceHashes };
}

export type BatchPackage = ReturnType<typeof buildBatchPackage>;
export type PartUpload = { ordinalNumber: number; method: string; url: string; headers: Record<string, string> };

/**
 * The three steps of README §8 as separate calls, so the pipeline can record the session reference before any
 * part is uploaded (a crash mid-upload is then reconciled from KSeF's session status).
 */
export async function openBatchSession(
  client: KsefClient,
  accessToken: string,
  pkg: BatchPackage,
): Promise<{ referenceNumber: string; partUploadRequests: PartUpload[] }> {
  return client.http.json({
    method: 'POST',
    path: '/sessions/batch',
    bearer: accessToken,
    json: {
      formCode: FA3_FORM_CODE,
      batchFile: {
        fileSize: pkg.archive.length,
        fileHash: sha256Base64(pkg.archive),
        compressionType: pkg.compressionType,
        fileParts: pkg.parts.map((p, i) => ({ ordinalNumber: i + 1, fileSize: p.length, fileHash: sha256Base64(p) })),
      },
      encryption: await sessionEncryption(client, pkg.key),
    },
  });
}

/** Parts go to their pre-signed URLs in parallel, without the access token; uploads are not rate-limited. */
export async function uploadBatchParts(client: KsefClient, pkg: BatchPackage, requests: PartUpload[], concurrency = 4): Promise<void> {
  const queue = [...requests];
  const worker = async () => {
    for (let req = queue.shift(); req; req = queue.shift()) {
      const part = pkg.parts[req.ordinalNumber - 1];
      if (!part) throw new Error(`KSeF asked for part ${req.ordinalNumber}, the package has ${pkg.parts.length}`);
      await client.http.send({ method: req.method as 'PUT', path: req.url, headers: req.headers, body: part, contentType: 'application/octet-stream' });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, requests.length) }, worker));
}

export async function closeBatchSession(client: KsefClient, accessToken: string, referenceNumber: string): Promise<void> {
  await client.http.send({ method: 'POST', path: `/sessions/batch/${referenceNumber}/close`, bearer: accessToken });
}

/** Opens a batch session, uploads every part to its pre-signed URL (no access token there) and closes it. */
export async function sendBatch(
  client: KsefClient,
  accessToken: string,
  invoices: BatchInvoice[],
  opts: { partBytes?: number; compressionType?: CompressionType } = {},
): Promise<OpenedBatch & { compressionType: CompressionType }> {
  const pkg = buildBatchPackage(invoices, opts.partBytes, opts.compressionType);
  const opened = await openBatchSession(client, accessToken, pkg);
  await uploadBatchParts(client, pkg, opened.partUploadRequests);
  await closeBatchSession(client, accessToken, opened.referenceNumber);
  return { referenceNumber: opened.referenceNumber, invoiceHashes: pkg.invoiceHashes, compressionType: pkg.compressionType };
}
