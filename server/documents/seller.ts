import type { DbOrTx } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { accountModes } from '@/server/db/schema';
import { checkSeller, type SellerCheck, type SellerColumns } from '@/server/accounts/seller-data';
import type { Seller } from '@/server/ksef/fa3/parts';

/** The account_modes columns a Seller is made of (sellerFrom), for reads that take more of the row. */
export const SELLER_COLUMNS = {
  sellerNip: accountModes.sellerNip,
  sellerName: accountModes.sellerName,
  sellerAddress1: accountModes.sellerAddress1,
  sellerAddress2: accountModes.sellerAddress2,
  cashAccounting: accountModes.cashAccounting,
};

/** The seller when its data is complete and valid (server/accounts/seller-data.ts), else null (seller_not_configured). */
export function sellerFrom(mode: SellerColumns): Seller | null {
  const check = checkSeller(mode);
  return check.ok ? check.seller : null;
}

/**
 * The scope's seller, or what is missing or wrong in its data (seller_not_configured). Reads only the seller's
 * columns: every prepare and send asks, and the whole account row is many columns for drizzle to map.
 */
export async function checkSellerOf(db: DbOrTx, scope: Scope): Promise<SellerCheck> {
  const [mode] = await db.select(SELLER_COLUMNS).from(accountModes).where(inScope(accountModes, scope));
  return mode ? checkSeller(mode) : { ok: false, problem: 'The account has no such mode.' };
}

/** The scope's seller when its data is complete and valid, else null (seller_not_configured). */
export async function sellerOf(db: DbOrTx, scope: Scope): Promise<Seller | null> {
  const check = await checkSellerOf(db, scope);
  return check.ok ? check.seller : null;
}
