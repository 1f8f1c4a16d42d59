import type { DbOrTx } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { accountModes } from '@/server/db/schema';
import { isSellerConfigured, type AccountModeRow } from '@/server/accounts/account-settings';
import type { Seller } from '@/server/ksef/fa3/parts';

/** The account_modes columns a Seller is made of (sellerFrom), for reads that take more of the row. */
export const SELLER_COLUMNS = {
  sellerNip: accountModes.sellerNip,
  sellerName: accountModes.sellerName,
  sellerAddress1: accountModes.sellerAddress1,
  sellerAddress2: accountModes.sellerAddress2,
  cashAccounting: accountModes.cashAccounting,
};
type SellerColumns = Pick<AccountModeRow, keyof typeof SELLER_COLUMNS>;

/** The seller when its data is complete, else null (seller_not_configured). */
export function sellerFrom(mode: SellerColumns): Seller | null {
  if (!isSellerConfigured(mode)) return null;
  return { nip: mode.sellerNip!, name: mode.sellerName!, address1: mode.sellerAddress1!, address2: mode.sellerAddress2, cashAccounting: mode.cashAccounting };
}

/**
 * The seller of a scope when its data is complete, else null (seller_not_configured). Reads only the seller's
 * columns: every prepare and send asks, and the whole account row is many columns for drizzle to map.
 */
export async function sellerOf(db: DbOrTx, scope: Scope): Promise<Seller | null> {
  const [mode] = await db.select(SELLER_COLUMNS).from(accountModes).where(inScope(accountModes, scope));
  return mode ? sellerFrom(mode) : null;
}
