import type { FaultRule } from './faults';
import type { LighthouseState } from './lighthouse';
import type { LimitsMode } from './limits';

export type EmulatorCounters = {
  requests: Record<string, number>;
  rateLimited: number;
  faults: Record<string, number>;
  invoices: { byNumber: Record<string, number>; byHash: Record<string, number>; accepted: number; rejected: number };
};

export type QrVerification = {
  /** KOD I: Accepted, TechnicallyCorrected (ksefNumber is the replacement's) or NotInKsef. */
  status?: 'Accepted' | 'TechnicallyCorrected' | 'NotInKsef';
  ksefNumber?: string;
  invoicingMode?: 'Online' | 'Offline';
  /** KOD II: every check passed. */
  valid?: boolean;
  checks?: { format: boolean; certificateValid?: boolean; signatureValid?: boolean; contextPermitted?: boolean; sellerPermitted?: boolean };
  certificate?: { serialNumber: string; type: string; status: string; validFrom: string; validTo: string };
};

/** Typed client for the emulator's /control endpoints; takes the emulator's KSeF base URL (…/v2) or its origin. */
export function createEmulatorControl(emulatorUrl: string) {
  const origin = new URL(emulatorUrl).origin;
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${origin}/control${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`emulator control ${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
  return {
    /** A KSeF token for the NIP's context, usable with POST /auth/ksef-token. */
    createCredentials: (nip: string, opts: { issuedAt?: string; validTo?: string | null } = {}) =>
      call<{ nip: string; token: string; referenceNumber: string; validTo: string | null }>('POST', '/credentials', { nip, ...opts }),
    /** A test certificate (company seal) of the NIP and its key: a XAdES login, which certificate enrolment requires. */
    createCertificateCredentials: (nip: string) =>
      call<{ nip: string; certificatePem: string; privateKeyPem: string }>('POST', '/certificate-credentials', { nip }),
    setFaults: (rules: FaultRule[], seed?: number) => call<{ rules: number }>('PUT', '/faults', { rules, seed }),
    clearFaults: () => call<void>('DELETE', '/faults'),
    setLimits: (mode: LimitsMode) => call<{ mode: LimitsMode }>('PUT', '/limits', { mode }),
    setProcessingDelay: (delayMs: number) => call<{ delayMs: number }>('PUT', '/processing', { delayMs }),
    setLifetimes: (l: { accessSeconds?: number; refreshSeconds?: number; challengeSeconds?: number }) => call<unknown>('PUT', '/lifetimes', l),
    counters: () => call<EmulatorCounters>('GET', '/counters'),
    /** What the status service (GET /latarnia/status) answers from now on; messages are added to those published. */
    setLighthouse: (status: LighthouseState['status'], messages: LighthouseState['messages'] = []) =>
      call<{ status: string; messages: number }>('PUT', '/lighthouse', { status, messages }),
    /** What the Ministry's QR page says about a KOD I or KOD II link (the emulator answers for any qr* host under /qr). */
    async verifyQr(link: string): Promise<QrVerification> {
      const res = await fetch(`${origin}/qr${new URL(link).pathname}`);
      if (!res.ok) throw new Error(`emulator QR page ${link}: ${res.status} ${await res.text()}`);
      return (await res.json()) as QrVerification;
    },
  };
}

export type EmulatorControl = ReturnType<typeof createEmulatorControl>;
