import { encryptRsaOaep, parseKsefCertificate } from './crypto';
import type { KsefClient } from './client';
import { KsefApiError } from './http';
import { buildAuthTokenRequest, signXades } from './xades';

export type KsefCredential =
  { kind: 'token'; nip: string; token: string } | { kind: 'certificate'; nip: string; certificatePem: string; privateKeyPem: string };

export type KsefTokens = { accessToken: string; accessValidUntil: Date; refreshToken: string; refreshValidUntil: Date };

/** Authentication ended in a final status other than 200 (README §5.4): 415, 425, 450, 460, 470, 480, 500, 550. */
export class KsefAuthError extends Error {
  constructor(
    readonly statusCode: number,
    readonly description: string,
    readonly details: string[],
  ) {
    super(`KSeF authentication failed (${statusCode}): ${description}${details.length ? ` – ${details.join('; ')}` : ''}`);
    this.name = 'KsefAuthError';
  }
}

type TokenInfo = { token: string; validUntil: string };
type Challenge = { challenge: string; timestampMs: number };
type InitResponse = { referenceNumber: string; authenticationToken: TokenInfo };
type StatusResponse = { status: { code: number; description: string; details?: string[] | null } };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const UNKNOWN_PUBLIC_KEY = 21470;

async function startWithToken(client: KsefClient, nip: string, token: string, refreshKeys = false): Promise<InitResponse> {
  const { challenge, timestampMs } = await client.http.json<Challenge>({ method: 'POST', path: '/auth/challenge' });
  const key = await client.publicKey('KsefTokenEncryption', refreshKeys);
  const encryptedToken = encryptRsaOaep(parseKsefCertificate(key.certificate).publicKey, Buffer.from(`${token}|${timestampMs}`, 'utf8'));
  try {
    return await client.http.json<InitResponse>({
      method: 'POST',
      path: '/auth/ksef-token',
      json: { challenge, contextIdentifier: { type: 'Nip', value: nip }, encryptedToken: encryptedToken.toString('base64'), publicKeyId: key.publicKeyId },
    });
  } catch (err) {
    // A rotated key: fetch the list again and retry once (README §4).
    if (err instanceof KsefApiError && err.code === UNKNOWN_PUBLIC_KEY && !refreshKeys) return startWithToken(client, nip, token, true);
    throw err;
  }
}

async function startWithCertificate(client: KsefClient, nip: string, certificatePem: string, privateKeyPem: string): Promise<InitResponse> {
  const { challenge } = await client.http.json<Challenge>({ method: 'POST', path: '/auth/challenge' });
  const signed = signXades(buildAuthTokenRequest({ challenge, nip }), { certificatePem, privateKeyPem });
  return client.http.json<InitResponse>({
    method: 'POST',
    path: '/auth/xades-signature',
    query: { verifyCertificateChain: false },
    body: signed,
    contentType: 'application/xml',
  });
}

/**
 * Challenge → KSeF token or XAdES → poll the status until it leaves 100 → redeem (README §5). Throws KsefAuthError
 * when KSeF refuses the credential, KsefApiError/KsefUnavailableError from the transport.
 */
export async function authenticate(
  client: KsefClient,
  credential: KsefCredential,
  opts: { pollIntervalMs?: number; timeoutMs?: number } = {},
): Promise<KsefTokens> {
  const init =
    credential.kind === 'token'
      ? await startWithToken(client, credential.nip, credential.token)
      : await startWithCertificate(client, credential.nip, credential.certificatePem, credential.privateKeyPem);
  const bearer = init.authenticationToken.token;
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  let interval = opts.pollIntervalMs ?? 250;
  for (;;) {
    const { status } = await client.http.json<StatusResponse>({ method: 'GET', path: `/auth/${init.referenceNumber}`, bearer });
    if (status.code === 200) break;
    if (status.code !== 100) throw new KsefAuthError(status.code, status.description, status.details ?? []);
    if (Date.now() > deadline) throw new KsefAuthError(100, 'authentication still in progress after the time limit', []);
    await sleep(interval);
    interval = Math.min(interval * 2, 2_000);
  }
  const tokens = await client.http.json<{ accessToken: TokenInfo; refreshToken: TokenInfo }>({ method: 'POST', path: '/auth/token/redeem', bearer });
  return {
    accessToken: tokens.accessToken.token,
    accessValidUntil: new Date(tokens.accessToken.validUntil),
    refreshToken: tokens.refreshToken.token,
    refreshValidUntil: new Date(tokens.refreshToken.validUntil),
  };
}

/** A new access token from the (reusable) refresh token; the refresh token itself is not replaced (README §5.6). */
export async function refreshAccessToken(client: KsefClient, refreshToken: string): Promise<{ accessToken: string; accessValidUntil: Date }> {
  const res = await client.http.json<{ accessToken: TokenInfo }>({ method: 'POST', path: '/auth/token/refresh', bearer: refreshToken });
  return { accessToken: res.accessToken.token, accessValidUntil: new Date(res.accessToken.validUntil) };
}
