import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { warsawDate } from '@/server/calendar/dates';
import { inRegister } from './register-query';

export type MonthMoney = { currency: string; documents: number; netGrosze: number; vatGrosze: number; grossGrosze: number };

/**
 * Net, VAT and gross of the documents issued in the Europe/Warsaw month of `now`, per currency: the month's VAT
 * register (inRegister), so the overview and the accountant's export agree. Corrections count with their own
 * (negative for a refund) amounts.
 */
export async function monthTotals(db: DbOrTx, scope: Scope, now: Date): Promise<{ period: string; totals: MonthMoney[] }> {
  const period = warsawDate(now.toISOString()).slice(0, 7);
  const rows = await db.execute<{ currency: string; documents: number; net: string | null; vat: string | null; gross: string | null }>(sql`
    select d.currency, count(*)::int as documents, sum(d.total_net_grosze) as net, sum(d.total_vat_grosze) as vat, sum(d.total_gross_grosze) as gross
    from documents d
    where ${inRegister(scope, period)}
    group by d.currency
    order by d.currency`);
  return {
    period,
    totals: rows.map((r) => ({
      currency: r.currency,
      documents: r.documents,
      netGrosze: Number(r.net ?? 0),
      vatGrosze: Number(r.vat ?? 0),
      grossGrosze: Number(r.gross ?? 0),
    })),
  };
}
