import type { DbOrTx } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { getAccountMode, isSellerConfigured } from '@/server/accounts/account-settings';
import type { Seller } from '@/server/ksef/fa3/parts';

/** The seller of a scope when its data is complete, else null (seller_not_configured). */
export async function sellerOf(db: DbOrTx, scope: Scope): Promise<Seller | null> {
  const { mode } = await getAccountMode(db, scope);
  if (!isSellerConfigured(mode)) return null;
  return { nip: mode.sellerNip!, name: mode.sellerName!, address1: mode.sellerAddress1!, address2: mode.sellerAddress2, cashAccounting: mode.cashAccounting };
}
