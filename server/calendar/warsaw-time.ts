import { addDays } from '@/server/calendar/date-text';

const OFFSET = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Warsaw', timeZoneName: 'longOffset' });

/** Minutes Warsaw is ahead of UTC at an instant (60 in winter, 120 in summer). */
function warsawOffsetMinutes(at: Date): number {
  const name = OFFSET.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** The instant a Warsaw calendar day starts (00:00 local time), DST included. */
export function warsawStartOfDay(date: string): Date {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  // the offset at the local midnight, found from a guess one offset earlier (no Polish DST change happens at midnight)
  const offset = warsawOffsetMinutes(new Date(utcMidnight - 120 * 60_000));
  return new Date(utcMidnight - offset * 60_000);
}

/** The last millisecond of a Warsaw day: a deadline "by day X" runs through the end of X in Polish time. */
export const endOfWarsawDay = (date: string): Date => new Date(warsawStartOfDay(addDays(date, 1)).getTime() - 1);
