import type { Db } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { accountModes, type KsefEnvironment } from '@/server/db/schema';
import { SELLER_COLUMNS, sellerFrom } from '@/server/documents/seller';
import { CREDENTIAL_COLUMNS, credentialFrom, type LoadedCredential } from '@/server/ksef-connection/credentials';
import { NO_OFFLINE_POLICY, OFFLINE_POLICY_COLUMNS, type OfflinePolicy } from '@/server/ksef-connection/offline-policy';
import type { Seller } from '@/server/ksef/fa3/parts';

/** The seller's NIP (the KSeF context its limits are counted under) and KSeF environment; environment test, no NIP, without a row. */
export type KsefAccount = { nip: string | null; environment: KsefEnvironment };

const NO_ACCOUNT: KsefAccount = { nip: null, environment: 'test' };

/** The scope's KSeF account alone (the status page; the send step has it from loadSendingScope). */
export async function readKsefAccount(db: Db, scope: Scope): Promise<KsefAccount> {
  const [mode] = await db
    .select({ nip: accountModes.sellerNip, environment: accountModes.ksefEnvironment })
    .from(accountModes)
    .where(inScope(accountModes, scope));
  return mode ?? NO_ACCOUNT;
}

export type SendingScope = { seller: Seller | null; offline: OfflinePolicy; credential: LoadedCredential | null; account: KsefAccount };

/**
 * Everything the send step reads of the seller's account mode, in one statement instead of a read per module:
 * the seller's data, the offline policy, the KSeF credential, and the account its KSeF limits are kept under.
 */
export async function loadSendingScope(db: Db, scope: Scope): Promise<SendingScope> {
  const [row] = await db
    .select({ ...SELLER_COLUMNS, ...OFFLINE_POLICY_COLUMNS, ...CREDENTIAL_COLUMNS })
    .from(accountModes)
    .where(inScope(accountModes, scope));
  if (!row) return { seller: null, offline: NO_OFFLINE_POLICY, credential: null, account: NO_ACCOUNT };
  return {
    seller: sellerFrom(row),
    offline: { policy: row.policy, delaySeconds: row.delaySeconds },
    credential: credentialFrom(row),
    account: { nip: row.nip, environment: row.environment },
  };
}
