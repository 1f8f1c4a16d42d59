import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { nbpRates } from '@/server/db/schema';
import { addDays, toWarsawDate } from '@/server/calendar/date-text';
import { metrics } from '@/server/observability/metrics';
import { fetchRateBefore, NbpUnavailableError, type NbpClientOptions } from './client';

export type TaxPointRate = { rate: string; date: string; table: string };
export type RateOptions = NbpClientOptions & { /** for tests: when "today" is */ now?: () => Date };

/**
 * The NBP table A rate for a tax point (`YYYY-MM-DD`, Warsaw; taxPoint in server/orders/tax-dates.ts): the last
 * table before it (art. 31a ust. 1 of the VAT act). Served from `nbp_rates` when known; otherwise fetched and
 * stored. NBP being down throws NbpUnavailableError so the job retries later.
 */
export async function getRateForTaxPoint(db: DbOrTx, currency: string, forDate: string, options: RateOptions = {}): Promise<TaxPointRate> {
  const code = currency.toUpperCase();
  const [cached] = await db
    .select()
    .from(nbpRates)
    .where(and(eq(nbpRates.currency, code), eq(nbpRates.forDate, forDate)));
  if (cached) return { rate: cached.rate, date: cached.effectiveDate, table: cached.tableNo };

  const fetched = await fetchRateBefore(code, forDate, options).catch((err: unknown) => {
    metrics().externalErrors.inc({ service: 'nbp' });
    throw err;
  });
  const dayBefore = addDays(forDate, -1);
  const today = toWarsawDate((options.now ?? (() => new Date()))());
  // A tax point today or later may still get a newer table for the day before it: using the older one
  // now would be a guess, and caching it would make the guess permanent.
  if (fetched.effectiveDate !== dayBefore && dayBefore >= today) {
    throw new NbpUnavailableError(`NBP table for ${dayBefore} may not be published yet (${code})`);
  }
  await db
    .insert(nbpRates)
    .values({ currency: code, forDate, effectiveDate: fetched.effectiveDate, tableNo: fetched.tableNo, rate: fetched.rate })
    .onConflictDoNothing();
  return { rate: fetched.rate, date: fetched.effectiveDate, table: fetched.tableNo };
}
