import { expect, test } from 'vitest';
import { warsawDate, warsawMidnight } from './dates';

test.each([
  ['2026-06-01T19:48:03Z', '2026-06-01'],
  ['2026-06-01T22:20:00Z', '2026-06-02'], // 00:20 in Warsaw (CEST) is already the next day
  ['2026-01-15T22:59:59Z', '2026-01-15'], // CET: 23:59:59
  ['2026-01-15T23:00:00Z', '2026-01-16'],
  ['2026-06-02T00:20:00+02:00', '2026-06-02'],
])('%s is %s in Warsaw', (iso, date) => expect(warsawDate(iso)).toBe(date));

test('refuses text that is not a date-time', () => expect(() => warsawDate('yesterday')).toThrow(RangeError));

test.each([
  ['2026-01-15', '2026-01-14T23:00:00.000Z'], // CET
  ['2026-06-02', '2026-06-01T22:00:00.000Z'], // CEST
  ['2026-03-29', '2026-03-28T23:00:00.000Z'], // the clocks go forward at 02:00 that night
  ['2026-10-25', '2026-10-24T22:00:00.000Z'], // and back at 03:00
])('%s begins at %s', (date, iso) => expect(warsawMidnight(date)?.toISOString()).toBe(iso));

test('a date that does not exist is none', () => {
  for (const text of ['2026-02-30', '2026-13-01', '26-01-01', '2026-01-01T00:00']) expect(warsawMidnight(text)).toBeNull();
});
