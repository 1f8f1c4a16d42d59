import type { buildBatchPackage } from '../ksef/batch-session';
import type { KsefClient } from '../ksef/client';
import { sha256Base64 } from '../ksef/crypto';
import { FA3_FORM_CODE, sessionEncryption } from '../ksef/online-session';

export type BatchPackage = ReturnType<typeof buildBatchPackage>;
export type PartUpload = { ordinalNumber: number; method: string; url: string; headers: Record<string, string> };

/**
 * The three steps of README §8 as separate calls (server/ksef/batch-session.ts `sendBatch` runs them in one go),
 * so the caller can record the session reference before any part is uploaded.
 */
export async function openBatchSession(client: KsefClient, accessToken: string, pkg: BatchPackage): Promise<{ referenceNumber: string; partUploadRequests: PartUpload[] }> {
  return client.http.json({
    method: 'POST',
    path: '/sessions/batch',
    bearer: accessToken,
    json: {
      formCode: FA3_FORM_CODE,
      batchFile: {
        fileSize: pkg.zip.length,
        fileHash: sha256Base64(pkg.zip),
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
