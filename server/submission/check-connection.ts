import type { Db } from '../db/client';
import type { Scope } from '../db/scope';
import { KsefUnavailableError } from '../ksef/http';
import { accessTokenFor, CredentialRefusedError, forgetAccessToken } from './access-token';
import { loadKsefCredential, recordConnectionCheck } from './credentials';
import { ksefClientFor } from './ksef-clients';

export type ConnectionCheck = { connected: boolean; error: string | null };

/**
 * A real authentication against KSeF with the scope's credential (ksef_connected / ksef_check_error of the
 * account). KSeF being down is reported but does not mark a working credential as broken.
 */
export async function checkKsefConnection(db: Db, scope: Scope): Promise<ConnectionCheck> {
  const loaded = await loadKsefCredential(db, scope);
  if (!loaded) return { connected: false, error: 'not connected' };
  await forgetAccessToken(db, scope);
  try {
    await accessTokenFor(db, scope, ksefClientFor(db, { environment: loaded.environment, credential: loaded.credential }), loaded);
    return { connected: true, error: null };
  } catch (err) {
    if (err instanceof CredentialRefusedError) return { connected: false, error: err.message };
    if (err instanceof KsefUnavailableError) {
      const error = `KSeF did not answer: ${err.message}`;
      await recordConnectionCheck(db, scope, loaded.version, error);
      return { connected: false, error };
    }
    throw err;
  }
}
