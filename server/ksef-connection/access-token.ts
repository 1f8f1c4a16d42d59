import type { Db } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { ksefTokens } from '@/server/db/schema';
import { authenticate, KsefAuthError, refreshAccessToken, type KsefTokens } from '@/server/ksef/auth';
import type { KsefClient } from '@/server/ksef/client';
import { KsefApiError, KsefUnavailableError } from '@/server/ksef/http';
import { authStatusOutcome } from '@/server/ksef/outcomes';
import { reportFailure } from '@/server/observability/failures';
import { recordConnectionCheck, type LoadedCredential } from '@/server/ksef-connection/credentials';
import { sealJson, unsealJson } from '@/server/security/sealed-json';

/** KSeF refused the credential itself (expired, revoked, no permission): the documents wait for a new one. */
export class CredentialRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialRefusedError';
  }
}

const MARGIN_MS = 60_000;
type StoredTokens = { accessToken: string; accessValidUntil: string; refreshToken: string; refreshValidUntil: string };

/**
 * A valid access token for the scope: the cached one, a refreshed one, or a new authentication (token or XAdES).
 * Tokens are cached sealed in PostgreSQL per credential version, so every worker shares them.
 */
export async function accessTokenFor(db: Db, scope: Scope, client: KsefClient, loaded: LoadedCredential, now = Date.now()): Promise<string> {
  if (loaded.validTo && loaded.validTo.getTime() <= now) await refuseExpired(db, scope, loaded);
  const [row] = await db.select().from(ksefTokens).where(inScope(ksefTokens, scope));
  if (row && row.credentialVersion === loaded.version) {
    const cached = unsealJson<StoredTokens>(row.tokens);
    if (Date.parse(cached.accessValidUntil) > now + MARGIN_MS) return cached.accessToken;
    if (Date.parse(cached.refreshValidUntil) > now + MARGIN_MS) {
      try {
        const fresh = await refreshAccessToken(client, cached.refreshToken);
        await store(db, scope, loaded.version, { ...cached, accessToken: fresh.accessToken, accessValidUntil: fresh.accessValidUntil.toISOString() });
        return fresh.accessToken;
      } catch (err) {
        if (!(err instanceof KsefApiError)) throw err; // KSeF down: retry later; a refused refresh: authenticate again
      }
    }
  }
  let tokens: KsefTokens;
  try {
    tokens = await authenticate(client, loaded.credential);
  } catch (err) {
    // KSeF cancelled the authentication itself (outcome table): tried again later, the credential is not refused
    if (err instanceof KsefAuthError && authStatusOutcome(err.statusCode) === 'retry') throw new KsefUnavailableError(err.message);
    if (err instanceof KsefAuthError || (err instanceof KsefApiError && err.status < 500)) {
      await recordConnectionCheck(db, scope, loaded.version, err.message);
      reportFailure('ksef_auth_failed', { ...scope, environment: loaded.environment, credentialVersion: loaded.version, error: err.message });
      throw new CredentialRefusedError(err.message);
    }
    throw err;
  }
  await store(db, scope, loaded.version, {
    accessToken: tokens.accessToken,
    accessValidUntil: tokens.accessValidUntil.toISOString(),
    refreshToken: tokens.refreshToken,
    refreshValidUntil: tokens.refreshValidUntil.toISOString(),
  });
  await recordConnectionCheck(db, scope, loaded.version, null);
  return tokens.accessToken;
}

/**
 * A credential past its end is not offered to KSeF (nor its cached access token used): the merchant sees why on the
 * KSeF page and in the attention list, and the documents wait for a new certificate or token.
 */
async function refuseExpired(db: Db, scope: Scope, loaded: LoadedCredential): Promise<never> {
  const what = loaded.credential.kind === 'token' ? 'KSeF token' : 'KSeF certificate';
  const message = `The ${what} expired on ${loaded.validTo!.toISOString()}; upload a certificate (or a new token) on the KSeF page.`;
  await recordConnectionCheck(db, scope, loaded.version, message);
  reportFailure('ksef_auth_failed', { ...scope, environment: loaded.environment, credentialVersion: loaded.version, error: message });
  throw new CredentialRefusedError(message);
}

/** Drops the cached token after KSeF answered 401 to it. */
export async function forgetAccessToken(db: Db, scope: Scope): Promise<void> {
  await db.delete(ksefTokens).where(inScope(ksefTokens, scope));
}

async function store(db: Db, scope: Scope, version: number, tokens: StoredTokens): Promise<void> {
  const sealed = sealJson(tokens);
  await db
    .insert(ksefTokens)
    .values({ accountId: scope.accountId, mode: scope.mode, credentialVersion: version, tokens: sealed })
    .onConflictDoUpdate({ target: [ksefTokens.accountId, ksefTokens.mode], set: { credentialVersion: version, tokens: sealed, updatedAt: new Date() } });
}
