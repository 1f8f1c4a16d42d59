import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { nbpRates } from '@/server/db/schema';
import { addDays, toWarsawDate } from './calendar';
import { fetchRateBefore, NbpUnavailableError, type NbpClientOptions } from './client';
import { metrics } from '@/server/observability/metrics';

export type PaymentRate = { rate: string; date: string; table: string };
export type RateOptions = NbpClientOptions & { /** for tests: when "today" is */ now?: () => Date };

/**
 * The NBP table A rate for an order paid at `paidAt` (ISO instant): the last table before the Warsaw date of the
 * payment. Served from `nbp_rates` when known; otherwise fetched and stored. NBP being down throws
 * NbpUnavailableError so the job retries later.
 */
export async function getRateForPayment(db: DbOrTx, currency: string, paidAt: string, options: RateOptions = {}): Promise<PaymentRate> {
  const code = currency.toUpperCase();
  const forDate = toWarsawDate(paidAt);
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
  // A payment dated today or later may still get a newer table for the day before it: using the older one
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
