/**
 * What the pipeline does with each KSeF answer: one table read by the online send, the batch send, the status polls
 * and authentication. Pure: the callers carry the outcome out (server/submission).
 */
import { KsefApiError, KsefUnavailableError } from './http';

export type KsefOutcome =
  /** The invoice has its KSeF number. */
  | { kind: 'accepted' }
  /** KSeF still works on it: ask again later. */
  | { kind: 'processing' }
  /** 440: our own XML (same hash) is reconciled to accepted with the original's number, anything else is ksef_duplicate_number (invariant 4). */
  | { kind: 'duplicate' }
  /** The session can no longer take invoices: open a new one and send there. */
  | { kind: 'new_session' }
  /** 401 to an access token: forget it and authenticate again. */
  | { kind: 'reauthenticate' }
  /** 429: not before Retry-After; not an outage, no attempt counted. */
  | { kind: 'throttled'; retryAfterSeconds: number }
  /**
   * Again after the back-off: KSeF did not answer (down, 5xx, time-out: `unavailable`, an outage), or it answered
   * that it cancelled the operation (550: `cancelled`, it asks for the invoice to be sent again).
   */
  | { kind: 'retry'; cause: 'unavailable' | 'cancelled'; message: string; retryAfterSeconds?: number }
  /** 410: KSeF no longer keeps the status (changelog 2.4.0); its invoice metadata says what became of the invoice. */
  | { kind: 'gone' }
  /** KSeF refused the document: final, with KSeF's code. */
  | { kind: 'rejected'; code: number; message: string };

/** Invoice status codes (KSeF README §7, the invoice status table); any other code is a rejection. */
const INVOICE_STATUS: Record<number, 'accepted' | 'processing' | 'duplicate' | 'retry'> = {
  100: 'processing',
  150: 'processing',
  200: 'accepted',
  440: 'duplicate',
  550: 'retry',
};

/**
 * Synchronous refusals of a request within a session (README §7): 21155 the session's invoice limit, 21173 no such
 * session, 21180 the session's status forbids sending, 21184 the session is unavailable for now. None is about the
 * document: a new session takes it.
 */
const NEW_SESSION_CODES = new Set([21155, 21173, 21180, 21184]);

/** Authentication statuses (README §5.4) that are KSeF's trouble, not the credential's: 550 cancelled by the system, retry. */
const AUTH_RETRY_CODES = new Set([550]);

type StatusInfo = { code: number; description: string; details?: string[] | null };

const describe = (description: string, details: readonly string[] | null | undefined) => `${description}${details?.length ? `: ${details.join('; ')}` : ''}`;

/** An invoice's status (online or in a batch session's invoice list). */
export function invoiceStatusOutcome(status: StatusInfo, ksefNumber: string | null | undefined): KsefOutcome {
  const kind = INVOICE_STATUS[status.code];
  if (kind === 'accepted') return ksefNumber ? { kind } : { kind: 'processing' };
  if (kind === 'retry') return { kind, cause: 'cancelled', message: `invoice status ${status.code} ${describe(status.description, status.details)}` };
  if (kind) return { kind };
  return { kind: 'rejected', code: status.code, message: describe(status.description, status.details) };
}

/** A failed KSeF request; undefined for anything that is not KSeF's answer (a bug, the database), which the caller rethrows. */
export function requestOutcome(err: unknown): KsefOutcome | undefined {
  if (err instanceof KsefUnavailableError) {
    if (err.status === 429) return { kind: 'throttled', retryAfterSeconds: err.retryAfterSeconds ?? 1 };
    return { kind: 'retry', cause: 'unavailable', message: err.message, retryAfterSeconds: err.retryAfterSeconds };
  }
  if (!(err instanceof KsefApiError)) return undefined;
  if (err.status === 401) return { kind: 'reauthenticate' };
  if (err.status === 410) return { kind: 'gone' };
  if (NEW_SESSION_CODES.has(err.code)) return { kind: 'new_session' };
  if (err.code === 550) return { kind: 'retry', cause: 'cancelled', message: err.message };
  if (err.status >= 500) return { kind: 'retry', cause: 'unavailable', message: err.message };
  return { kind: 'rejected', code: err.code, message: describe(err.description, err.details) };
}

/** A final authentication status other than 200: KSeF's own trouble is retried, anything else refuses the credential. */
export const authStatusOutcome = (code: number): 'retry' | 'refused' => (AUTH_RETRY_CODES.has(code) ? 'retry' : 'refused');

/** Batch session statuses (README §8): still processing, final with a result per invoice in its list, or failed as a whole. */
const SESSION_STATUS: Record<number, 'processing' | 'results'> = { 100: 'processing', 150: 'processing', 170: 'processing', 200: 'results', 445: 'results' };

/** A failed session processed nothing of its documents: they may go into a new one. */
export const sessionStatusOutcome = (code: number): 'processing' | 'results' | 'failed' => SESSION_STATUS[code] ?? 'failed';
