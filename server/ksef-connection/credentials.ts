import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { accountModes, documents, ksefTokens } from '@/server/db/schema';
import { nextUpdatedAt } from '@/server/documents/patch-document';
import { enqueue } from '@/server/jobs/enqueue';
import type { KsefCredential } from '@/server/ksef/auth';
import { sealJson, unsealJson } from '@/server/security/sealed-json';
import { NOT_CHECKED_YET } from './check-errors';
import { credentialValidTo } from './credential-expiry';

/** A credential as the merchant gives it; the NIP comes from the seller data at use time. */
export type StoredCredential = { kind: 'token'; token: string; issuer?: 'emulator' } | { kind: 'certificate'; certificatePem: string; privateKeyPem: string };

export { NOT_CHECKED_YET };

/** validTo: when the credential stops working, if known (credential-expiry.ts); past it, it is not used. */
export type LoadedCredential = { credential: KsefCredential; version: number; environment: 'test' | 'demo' | 'prod'; validTo: Date | null };

/**
 * Saves (sealed) a KSeF token or certificate for the scope, forgets cached KSeF tokens, and wakes every document
 * that waits for credentials (spec 3: "documents wait until a working certificate or token is uploaded").
 */
export async function saveKsefCredential(db: Db, scope: Scope, credential: StoredCredential): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(accountModes)
      .set({
        ksefCredential: sealJson(credential),
        ksefCredentialKind: credential.kind,
        ksefCredentialValidTo: credentialValidTo(credential),
        ksefCredentialVersion: sql`${accountModes.ksefCredentialVersion} + 1`,
        ksefConnected: false,
        ksefCheckError: NOT_CHECKED_YET,
        updatedAt: new Date(),
      })
      .where(inScope(accountModes, scope));
    await tx.delete(ksefTokens).where(inScope(ksefTokens, scope));
    await enqueue(tx, 'ksef_check', { accountId: scope.accountId, mode: scope.mode });
    await resumeWaitingDocuments(tx, scope);
  });
}

/**
 * Queued documents of the scope that wait on KSeF credentials wait no more (their wait is the lane's to skip: see
 * server/submission/lane-queue.ts), and the lane's send job takes them.
 */
export async function resumeWaitingDocuments(tx: Parameters<Parameters<Db['transaction']>[0]>[0], scope: Scope): Promise<number> {
  const waiting = await tx
    .update(documents)
    .set({ lastError: null, sendAfter: null, updatedAt: nextUpdatedAt() })
    .where(
      and(inScope(documents, scope), eq(documents.status, 'queued'), inArray(sql`${documents.lastError}->>'code'`, ['ksef_not_connected', 'ksef_auth_failed'])),
    )
    .returning({ id: documents.id });
  if (waiting.length) await enqueue(tx, 'ksef_send', scope);
  return waiting.length;
}

/** The account_modes columns a credential is read from (credentialFrom), for reads that take more of the row. */
export const CREDENTIAL_COLUMNS = {
  sealed: accountModes.ksefCredential,
  version: accountModes.ksefCredentialVersion,
  nip: accountModes.sellerNip,
  environment: accountModes.ksefEnvironment,
  validTo: accountModes.ksefCredentialValidTo,
};

export function credentialFrom(row: {
  sealed: string | null;
  version: number;
  nip: string | null;
  environment: LoadedCredential['environment'];
  validTo?: Date | null;
}): LoadedCredential | null {
  if (!row.sealed || !row.nip) return null;
  const stored = unsealJson<StoredCredential>(row.sealed);
  const credential: KsefCredential = stored.kind === 'token' ? { kind: 'token', nip: row.nip, token: stored.token } : { ...stored, nip: row.nip };
  // a row saved before token ends were known has no valid_to: the credential itself says it
  return { credential, version: row.version, environment: row.environment, validTo: row.validTo ?? credentialValidTo(stored) };
}

export async function loadKsefCredential(db: Db, scope: Scope): Promise<LoadedCredential | null> {
  const [row] = await db.select(CREDENTIAL_COLUMNS).from(accountModes).where(inScope(accountModes, scope));
  return row ? credentialFrom(row) : null;
}

export async function recordConnectionCheck(db: Db, scope: Scope, version: number, error: string | null): Promise<void> {
  await db
    .update(accountModes)
    .set({ ksefConnected: error === null, ksefCheckError: error, ksefCheckedAt: new Date() })
    .where(and(inScope(accountModes, scope), eq(accountModes.ksefCredentialVersion, version)));
}

/** Whether a sealed credential was issued by the local KSeF emulator (dev stack bookkeeping). */
export const isEmulatorIssued = (sealed: string): boolean => {
  const stored = unsealJson<StoredCredential>(sealed);
  return stored.kind === 'token' && stored.issuer === 'emulator';
};
