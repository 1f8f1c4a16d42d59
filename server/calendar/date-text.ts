/** Calendar-date helpers on `YYYY-MM-DD` text: rate look-ups work on Polish dates, never on instants. */

const WARSAW = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The Europe/Warsaw calendar date of an instant (ISO text or Date). */
export function toWarsawDate(instant: string | Date): string {
  const at = typeof instant === 'string' ? new Date(instant) : instant;
  if (Number.isNaN(at.getTime())) throw new Error(`not a valid instant: ${String(instant)}`);
  return WARSAW.format(at);
}

export function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

export const isIsoDate = (value: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
