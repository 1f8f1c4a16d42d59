import { addDays } from '@/server/calendar/date-text';

/**
 * The Polish working-day calendar (weekends and statutory days off, ustawa o dniach wolnych od pracy, art. 1), one
 * pure module shared by the offline deadlines (art. 106nda VAT Act: "następny dzień roboczy") and the NBP emulator
 * (table A is published on working days only).
 */

/** Easter Sunday (Gregorian, anonymous algorithm) as YYYY-MM-DD. */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const FIXED = ['01-01', '01-06', '05-01', '05-03', '08-15', '11-01', '11-11', '12-25', '12-26'];

/** Polish statutory days off; 24 December joined the list in 2025. */
export function polishHolidays(year: number): Set<string> {
  const easter = easterSunday(year);
  const days = FIXED.map((md) => `${year}-${md}`);
  days.push(easter, addDays(easter, 1), addDays(easter, 49), addDays(easter, 60)); // Easter, its Monday, Pentecost, Corpus Christi
  if (year >= 2025) days.push(`${year}-12-24`);
  return new Set(days);
}

const cache = new Map<number, Set<string>>();

/** Monday to Friday and not a statutory day off. */
export function isWorkingDay(date: string): boolean {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const year = Number(date.slice(0, 4));
  let holidays = cache.get(year);
  if (!holidays) cache.set(year, (holidays = polishHolidays(year)));
  return !holidays.has(date);
}

/** The first working day strictly after `date`. */
export function nextWorkingDay(date: string): string {
  let day = addDays(date, 1);
  while (!isWorkingDay(day)) day = addDays(day, 1);
  return day;
}

/** The `n`th working day after `date` (art. 106nf ust. 1 counts "7 dni roboczych" this way). */
export function addWorkingDays(date: string, n: number): string {
  let day = date;
  for (let i = 0; i < n; i++) day = nextWorkingDay(day);
  return day;
}
