import { z } from 'zod';

/** A Europe/Warsaw calendar month `YYYY-MM`; documents belong to it by their issue date (P_1, a Warsaw date). */
export const ZPeriod = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a month YYYY-MM');

/** Issue dates of the month as the half-open text range [first day, first day of the next month). */
export function periodDates(period: string): { from: string; to: string } {
  const [y, m] = period.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  return { from: `${period}-01`, to: `${next}-01` };
}
