/** Polish calendar dates (DESIGN invariant 8): P_1, P_6, DataZaplaty and the NBP rate date are Warsaw dates. */
const WARSAW_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The Europe/Warsaw calendar date (YYYY-MM-DD) of an instant given as ISO 8601 text with an offset or Z. */
export function warsawDate(iso: string): string {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) throw new RangeError(`not a date-time: ${iso}`);
  return WARSAW_DATE.format(instant);
}

const WARSAW_OFFSET = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Warsaw', timeZoneName: 'longOffset' });

/** The instant a Europe/Warsaw calendar date (YYYY-MM-DD) begins; null for text that is no such date. */
export function warsawMidnight(date: string): Date | null {
  const utc = new Date(`${date}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(utc.getTime()) || utc.toISOString().slice(0, 10) !== date) return null;
  // the offset at 00:00 UTC (01:00 or 02:00 in Warsaw) is midnight's: the clocks change at 02:00–03:00
  const hours = Number(/^GMT([+-]\d\d)/.exec(WARSAW_OFFSET.formatToParts(utc).find((p) => p.type === 'timeZoneName')?.value ?? '')?.[1] ?? 0);
  return new Date(utc.getTime() - hours * 3_600_000);
}
