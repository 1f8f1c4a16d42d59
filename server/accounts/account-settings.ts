import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { inScope } from '@/server/db/scope';
import { accountModes, accounts, numberCounters } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { enqueue } from '@/server/jobs/enqueue';
import type { SellerInput } from './create-account';
import { checkSeller, type SellerColumns } from './seller-data';

export type AccountModeRow = typeof accountModes.$inferSelect;

export async function getAccountMode(db: DbOrTx, scope: Scope) {
  const [row] = await db
    .select({ mode: accountModes, account: accounts })
    .from(accountModes)
    .innerJoin(accounts, eq(accounts.id, accountModes.accountId))
    .where(inScope(accountModes, scope));
  if (!row) throw new AppError('resource_missing');
  return row;
}

/** Seller data complete and valid (server/accounts/seller-data.ts): what document_prepare needs to number. */
export const isSellerConfigured = (m: SellerColumns) => checkSeller(m).ok;

export async function updateSeller(db: DbOrTx, scope: Scope, seller: SellerInput): Promise<void> {
  await db
    .update(accountModes)
    .set({
      sellerNip: seller.nip ?? null,
      sellerName: seller.name ?? null,
      sellerAddress1: seller.address1 ?? null,
      sellerAddress2: seller.address2 ?? null,
      ...(seller.cashAccounting !== undefined && { cashAccounting: seller.cashAccounting }),
      updatedAt: new Date(),
    })
    .where(inScope(accountModes, scope));
}

export async function enableLive(db: DbOrTx, accountId: string): Promise<boolean> {
  const rows = await db.update(accounts).set({ liveEnabled: true }).where(eq(accounts.id, accountId)).returning({ id: accounts.id });
  return rows.length > 0;
}

/**
 * Live plan limit (null = none); test mode is always Unlimited. The release of documents waiting for the plan
 * is enqueued in the same transaction, so a raised limit always numbers them (in creation order).
 */
export async function setMonthlyLimit(db: DbOrTx, accountId: string, limit: number | null): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(accountModes)
      .set({ monthlyLimit: limit, planName: limit === null ? 'Unlimited' : `Up to ${limit} invoices a month`, updatedAt: new Date() })
      .where(and(eq(accountModes.accountId, accountId), eq(accountModes.mode, 'live')))
      .returning({ id: accountModes.accountId });
    if (rows.length === 0) return false;
    await enqueue(tx, 'plan_release', { accountId, mode: 'live' });
    return true;
  });
}

/** Invoices numbered in a Europe/Warsaw month (`YYYY-MM`, default the current one): gapless, so the FV counter. */
export async function countIssuedThisMonth(db: DbOrTx, scope: Scope, period?: string): Promise<number> {
  const [row] = await db
    .select({ value: numberCounters.value })
    .from(numberCounters)
    .where(and(inScope(numberCounters, scope), eq(numberCounters.series, 'FV'), eq(numberCounters.period, period ?? warsawMonth)));
  return row?.value ?? 0;
}

/** The current Europe/Warsaw month, as `number_counters.period` holds it. */
const warsawMonth = sql`to_char(now() at time zone 'Europe/Warsaw', 'YYYY-MM')`;

const prepareOverview = (db: DbOrTx) =>
  db
    .select({ mode: accountModes, account: accounts, issuedThisMonth: sql<number>`coalesce(${numberCounters.value}, 0)` })
    .from(accountModes)
    .innerJoin(accounts, eq(accounts.id, accountModes.accountId))
    .leftJoin(
      numberCounters,
      and(
        eq(numberCounters.accountId, accountModes.accountId),
        eq(numberCounters.mode, accountModes.mode),
        eq(numberCounters.series, 'FV'),
        eq(numberCounters.period, warsawMonth),
      ),
    )
    .where(and(eq(accountModes.accountId, sql.placeholder('accountId')), eq(accountModes.mode, sql.placeholder('mode'))))
    .prepare('account_overview');

/** Built once per database handle: drizzle's prepared queries also make PostgreSQL keep the plan per connection. */
const overviewQueries = new WeakMap<DbOrTx, ReturnType<typeof prepareOverview>>();

/**
 * The mode's settings, its account and the invoices issued (numbered) in the current Europe/Warsaw month, in one
 * query: GET /v1/account is on every integration's hot path. Numbering is gapless, so the month's FV counter is
 * that count: one joined row instead of a scan of the documents.
 */
export async function getAccountOverview(db: DbOrTx, scope: Scope) {
  let query = overviewQueries.get(db);
  if (!query) overviewQueries.set(db, (query = prepareOverview(db)));
  const [row] = await query.execute({ accountId: scope.accountId, mode: scope.mode });
  if (!row) throw new AppError('resource_missing');
  return row;
}
