/** Polish calendar dates (DESIGN invariant 8): P_1, P_6, DataZaplaty and the NBP rate date are Warsaw dates. */
const WARSAW_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The Europe/Warsaw calendar date (YYYY-MM-DD) of an instant given as ISO 8601 text with an offset or Z. */
export function warsawDate(iso: string): string {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) throw new RangeError(`not a date-time: ${iso}`);
  return WARSAW_DATE.format(instant);
}
