import { config } from '@/server/config';
import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { KsefUnavailableError } from '@/server/ksef/http';
import { loadKsefCredential, NOT_CHECKED_YET, recordConnectionCheck, saveKsefCredential, type StoredCredential } from '@/server/ksef-connection/credentials';
import { noAnswer, NOT_CONNECTED } from '@/server/ksef-connection/check-errors';
import { log } from '@/server/observability/log';
import { accessTokenFor, CredentialRefusedError, forgetAccessToken } from './access-token';
import { ksefClientFor } from './ksef-clients';

export type ConnectionCheck = { connected: boolean; error: string | null };

/**
 * A real authentication against KSeF with the scope's credential (ksef_connected / ksef_check_error of the
 * account). KSeF being down is reported but does not mark a working credential as broken.
 */
export async function checkKsefConnection(db: Db, scope: Scope): Promise<ConnectionCheck> {
  const loaded = await loadKsefCredential(db, scope);
  if (!loaded) return { connected: false, error: NOT_CONNECTED };
  await forgetAccessToken(db, scope);
  try {
    await accessTokenFor(db, scope, ksefClientFor(db, { environment: loaded.environment, credential: loaded.credential }), loaded);
    return { connected: true, error: null };
  } catch (err) {
    if (err instanceof CredentialRefusedError) return { connected: false, error: err.message };
    if (err instanceof KsefUnavailableError) {
      const error = noAnswer(err.message);
      await recordConnectionCheck(db, scope, loaded.version, error);
      return { connected: false, error };
    }
    throw err;
  }
}

/**
 * The check run as part of saving credentials (CLI, dashboard), so that GET /v1/account says at once whether they
 * work. It waits at most `timeoutMs` (KSEF_CHECK_ON_SAVE_TIMEOUT_MS); a slower KSeF leaves the answer to the
 * ksef_check job the save enqueued, and the account says "not checked yet" until then.
 */
export async function checkKsefConnectionWithin(db: Db, scope: Scope, timeoutMs = config().KSEF_CHECK_ON_SAVE_TIMEOUT_MS): Promise<ConnectionCheck> {
  const pending: ConnectionCheck = { connected: false, error: NOT_CHECKED_YET };
  if (timeoutMs === 0) return pending;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<ConnectionCheck>((resolve) => {
    timer = setTimeout(() => resolve(pending), timeoutMs);
  });
  const check = checkKsefConnection(db, scope).catch((err: unknown) => {
    log.warn({ err }, 'ksef_check_on_save_failed');
    return pending;
  });
  try {
    return await Promise.race([check, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** Saves a credential and checks it within the save's time-out (see checkKsefConnectionWithin). */
export async function saveAndCheckKsefCredential(db: Db, scope: Scope, credential: StoredCredential): Promise<ConnectionCheck> {
  await saveKsefCredential(db, scope, credential);
  return checkKsefConnectionWithin(db, scope);
}
