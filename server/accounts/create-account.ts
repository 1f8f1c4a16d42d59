import { createApiKey } from '@/server/api-keys/api-keys';
import { hashPassword } from '@/server/security/passwords';
import type { Db } from '@/server/db/client';
import { accountModes, accounts, memberships, users } from '@/server/db/schema';
import { newId } from '@/server/ids';

export type SellerInput = { nip?: string; name?: string; address1?: string; address2?: string; cashAccounting?: boolean };

export type CreateAccountInput = { email: string; password?: string; platform?: 'api' | 'shopplatform'; seller?: SellerInput };

/**
 * A new account with both modes (test on the KSeF test environment, live on production), a key for each,
 * and, with a password, a user who signs in to the dashboard. Live mode stays disabled until enabled.
 */
export async function createAccount(db: Db, input: CreateAccountInput) {
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  return db.transaction(async (tx) => {
    const accountId = newId('acct');
    await tx.insert(accounts).values({ id: accountId, email: input.email, platform: input.platform ?? 'api' });
    const seller = {
      sellerNip: input.seller?.nip ?? null,
      sellerName: input.seller?.name ?? null,
      sellerAddress1: input.seller?.address1 ?? null,
      sellerAddress2: input.seller?.address2 ?? null,
    };
    await tx.insert(accountModes).values([
      { accountId, mode: 'test', ksefEnvironment: 'test', ...seller },
      { accountId, mode: 'live', ksefEnvironment: 'prod', ...seller },
    ]);
    if (passwordHash) {
      const userId = newId('usr');
      await tx.insert(users).values({ id: userId, email: input.email.toLowerCase(), passwordHash });
      await tx.insert(memberships).values({ userId, accountId, role: 'owner' });
    }
    const testKey = await createApiKey(tx, accountId, 'test');
    const liveKey = await createApiKey(tx, accountId, 'live');
    return { accountId, testKey: testKey.key, liveKey: liveKey.key };
  });
}
