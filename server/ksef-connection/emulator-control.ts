import { config } from '@/server/config';

/**
 * The local KSeF emulator's control endpoint (dev stack and tests only): it issues a KSeF token for a NIP, as
 * the real test environment's own token page would, or a self-signed test certificate of the NIP, as anyone may make
 * for the test environment. Spoken over HTTP like any outside service; only the
 * emulator answers /control, and a real KSeF host is never asked.
 */
const isLocal = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

async function control<T>(baseUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const url = new URL(baseUrl);
  if (!isLocal(url)) throw new Error(`${url.origin} is not a local KSeF emulator`);
  const res = await fetch(`${url.origin}/control${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(5_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`emulator control ${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A KSeF token for the NIP's context, usable with POST /auth/ksef-token. */
export const issueEmulatorToken = (baseUrl: string, nip: string) => control<{ token: string }>(baseUrl, 'POST', '/credentials', { nip });

/** A test certificate (company seal) of the NIP and its key, for a XAdES login (README §5.3 of the KSeF reference). */
export const issueEmulatorCertificate = (baseUrl: string, nip: string) =>
  control<{ certificatePem: string; privateKeyPem: string }>(baseUrl, 'POST', '/certificate-credentials', { nip });

/** Whether KSeF's test environment URL is the local emulator (it alone answers /control), within a second. */
export async function isKsefEmulator(baseUrl = config().KSEF_TEST_BASE_URL): Promise<boolean> {
  if (!isLocal(new URL(baseUrl))) return false;
  return Promise.race([
    control(baseUrl, 'GET', '/counters').then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1_000).unref()),
  ]);
}
