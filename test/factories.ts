import { createAccount } from '@/server/accounts/create-account';
import type { Db } from '@/server/db/client';
import { randomToken } from '@/server/ids';

export const VALID_SELLER = { nip: '5260250274', name: 'Sklep Testowy sp. z o.o.', address1: 'ul. Prosta 1', address2: '00-001 Warszawa' };

/** An account made through the product's own door (what `cli account create` calls). */
export async function createTestAccount(db: Db, options: { seller?: typeof VALID_SELLER | null } = {}) {
  const email = `${randomToken(64)}@example.test`;
  const created = await createAccount(db, { email, seller: options.seller === null ? undefined : (options.seller ?? VALID_SELLER) });
  return { ...created, email, testScope: { accountId: created.accountId, mode: 'test' as const } };
}
