import type { Db } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { accountModes } from '@/server/db/schema';
import { ENROLMENT_NEEDS_XADES, enrollCertificate, getEnrollmentData, getEnrollmentStatus, retrieveCertificates } from '@/server/ksef/certificates';
import { certificatePemOf, createCsr } from '@/server/ksef/csr';
import { KsefApiError, KsefUnavailableError } from '@/server/ksef/http';
import { type ErrorDetail, type ErrorParams } from '@/server/errors';
import { ERROR_DETAILS } from '@/server/facts/error-details';
import { fillTemplate } from '@/server/template';
import { loadKsefCredential } from '@/server/ksef-connection/credentials';
import { checkOfflineCertificate, saveOfflineCertificate, type OfflineCertificate } from '@/server/ksef-connection/offline-certificate';
import { sealJson, unsealJson } from '@/server/security/sealed-json';
import { accessTokenFor } from '@/server/ksef-connection/access-token';
import { ksefClientFor } from '@/server/ksef-connection/ksef-clients';

/** Why a KSeF-token connection cannot enrol: KSeF allows enrolment only after a XAdES login (25001/25002). */
export const TOKEN_CANNOT_ENROL = ERROR_DETAILS.enrol_needs_certificate;

export type EnrolmentOutcome =
  | { state: 'done'; certificate: OfflineCertificate }
  | { state: 'pending'; referenceNumber: string }
  | { state: 'failed'; reason: string; detail: ErrorDetail; params: ErrorParams };

type PendingEnrolment = { referenceNumber: string; privateKeyPem: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function recordPending(db: Db, scope: Scope, pending: PendingEnrolment | null, error: string | null): Promise<void> {
  await db
    .update(accountModes)
    .set({ offlineEnrolment: pending ? sealJson(pending) : null, offlineEnrolmentError: error, updatedAt: new Date() })
    .where(inScope(accountModes, scope));
}

/**
 * One click in the dashboard: a fresh EC P-256 key pair generated here, a CSR for exactly the subject KSeF returns,
 * enrolment as type Offline, then status polling and retrieval; the certificate and key are stored sealed. The key
 * is sealed in the account before enrolling, so an enrolment KSeF finishes later is picked up by finishOfflineEnrolment.
 */
export async function enrolOfflineCertificate(db: Db, scope: Scope, opts: { waitMs?: number; now?: Date } = {}): Promise<EnrolmentOutcome> {
  const loaded = await loadKsefCredential(db, scope);
  if (!loaded) return failed('enrol_needs_connection');
  if (loaded.credential.kind === 'token') return fail(db, scope, 'enrol_needs_certificate');
  const client = ksefClientFor(db, loaded);
  try {
    const token = await accessTokenFor(db, scope, client, loaded);
    const data = await getEnrollmentData(client, token);
    const { csr, privateKeyPem } = await createCsr(data);
    const stamp = (opts.now ?? new Date()).toISOString().slice(0, 10);
    const { referenceNumber } = await enrollCertificate(client, token, { certificateName: `KSeF Relay Offline ${stamp}`, certificateType: 'Offline', csr });
    await recordPending(db, scope, { referenceNumber, privateKeyPem }, null);
  } catch (err) {
    return failure(db, scope, err);
  }
  return finishOfflineEnrolment(db, scope, opts);
}

/** Polls a pending enrolment (up to `waitMs`), retrieves the certificate, checks it as an upload would, stores it. */
export async function finishOfflineEnrolment(db: Db, scope: Scope, opts: { waitMs?: number; now?: Date } = {}): Promise<EnrolmentOutcome> {
  const [row] = await db.select({ sealed: accountModes.offlineEnrolment }).from(accountModes).where(inScope(accountModes, scope));
  if (!row?.sealed) return failed('enrol_not_under_way');
  const pending = unsealJson<PendingEnrolment>(row.sealed);
  const loaded = await loadKsefCredential(db, scope);
  if (!loaded) return { state: 'pending', referenceNumber: pending.referenceNumber };
  const client = ksefClientFor(db, loaded);
  const deadline = Date.now() + (opts.waitMs ?? 20_000);
  try {
    const token = await accessTokenFor(db, scope, client, loaded);
    for (let interval = 250; ; interval = Math.min(interval * 2, 2_000)) {
      const status = await getEnrollmentStatus(client, token, pending.referenceNumber);
      if (status.status.code === 200 && status.certificateSerialNumber) {
        const [retrieved] = await retrieveCertificates(client, token, [status.certificateSerialNumber]);
        if (!retrieved) return fail(db, scope, 'enrol_not_returned', { serial: status.certificateSerialNumber });
        const certificate = checkOfflineCertificate(certificatePemOf(retrieved.certificate), pending.privateKeyPem, opts.now ?? new Date());
        await saveOfflineCertificate(db, scope, certificate, 'enrolment');
        return { state: 'done', certificate };
      }
      if (status.status.code !== 100)
        return fail(db, scope, 'enrol_refused', {
          reason: `${status.status.code} ${status.status.description}${status.status.details?.length ? `: ${status.status.details.join('; ')}` : ''}`,
        });
      if (Date.now() + interval > deadline) return { state: 'pending', referenceNumber: pending.referenceNumber };
      await sleep(interval);
    }
  } catch (err) {
    return failure(db, scope, err);
  }
}

const failed = (detail: ErrorDetail, params: ErrorParams = {}): EnrolmentOutcome => ({
  state: 'failed',
  reason: fillTemplate(ERROR_DETAILS[detail], params),
  detail,
  params,
});

/**
 * A failure KSeF gave is kept on the account mode as its cause and values (JSON), for the dashboard to show in the
 * reader's language after the page reloads.
 */
async function fail(db: Db, scope: Scope, detail: ErrorDetail, params: ErrorParams = {}): Promise<EnrolmentOutcome> {
  await recordPending(db, scope, null, JSON.stringify({ detail, params }));
  return failed(detail, params);
}

export type EnrolmentError = { detail: ErrorDetail | null; params: ErrorParams; text: string };

/** The kept failure; a text stored before causes were kept comes back as it is, without a cause. */
export function readEnrolmentError(stored: string | null): EnrolmentError | null {
  if (stored === null) return null;
  try {
    const { detail, params } = JSON.parse(stored) as { detail: ErrorDetail; params: ErrorParams };
    if (detail in ERROR_DETAILS) return { detail, params, text: fillTemplate(ERROR_DETAILS[detail], params) };
  } catch {
    // an English text of an earlier version
  }
  return { detail: null, params: {}, text: stored };
}

async function failure(db: Db, scope: Scope, err: unknown): Promise<EnrolmentOutcome> {
  if (err instanceof KsefApiError && ENROLMENT_NEEDS_XADES.has(err.code)) return fail(db, scope, 'enrol_needs_certificate');
  if (err instanceof KsefApiError) return fail(db, scope, 'enrol_refused', { reason: err.message });
  if (err instanceof KsefUnavailableError) return failed('enrol_no_answer', { reason: err.message });
  if (err instanceof Error && err.name === 'CredentialRefusedError') return fail(db, scope, 'enrol_login_refused', { reason: err.message });
  throw err;
}
