import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { accountModes } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { isEmulatorIssued, saveKsefCredential, type StoredCredential } from './credentials';
import { issueEmulatorCertificate, issueEmulatorToken } from './emulator-control';

/**
 * Test mode against the local KSeF emulator (dev and e2e only): asks the emulator's control endpoint for test
 * credentials of the seller's NIP and saves them. A KSeF token is the quickest; a test certificate logs in with
 * XAdES, which KSeF requires before it issues certificates, so with it an Offline certificate can be enrolled and
 * offline issuing tried (certyfikaty-KSeF.md: a KSeF-token login gets 25001/25002). Fails with a clear message when
 * the URL is not an emulator.
 */
export async function connectToEmulator(db: Db, scope: Scope, emulatorBaseUrl: string, kind: StoredCredential['kind'] = 'token'): Promise<void> {
  if (scope.mode !== 'test') throw new Error('only test mode can use the KSeF emulator');
  const [mode] = await db.select({ nip: accountModes.sellerNip }).from(accountModes).where(inScope(accountModes, scope));
  if (!mode?.nip) throw AppError.detailed('seller_not_configured', 'nip', 'emulator_needs_nip');
  let credential: StoredCredential;
  try {
    if (kind === 'token') credential = { kind, token: (await issueEmulatorToken(emulatorBaseUrl, mode.nip)).token, issuer: 'emulator' };
    else {
      const { certificatePem, privateKeyPem } = await issueEmulatorCertificate(emulatorBaseUrl, mode.nip);
      credential = { kind, certificatePem, privateKeyPem };
    }
  } catch (err) {
    throw AppError.detailed('ksef_unavailable', undefined, 'emulator_no_answer', {
      url: emulatorBaseUrl,
      reason: err instanceof Error ? err.message : String(err),
    });
  }
  await saveKsefCredential(db, scope, credential);
}

/**
 * The emulator forgets everything on restart; the dev stack re-issues the tokens it gave before. Its test
 * certificates need nothing: the emulator, like the test environment, accepts any self-signed one of the NIP.
 */
export async function reconnectEmulatorScopes(db: Db, emulatorBaseUrl: string): Promise<number> {
  const rows = await db
    .select({ accountId: accountModes.accountId, sealed: accountModes.ksefCredential })
    .from(accountModes)
    .where(and(eq(accountModes.mode, 'test'), eq(accountModes.ksefCredentialKind, 'token'), sql`${accountModes.ksefCredential} is not null`));
  let n = 0;
  for (const r of rows) {
    if (!r.sealed || !isEmulatorIssued(r.sealed)) continue;
    await connectToEmulator(db, { accountId: r.accountId, mode: 'test' }, emulatorBaseUrl);
    n++;
  }
  return n;
}
