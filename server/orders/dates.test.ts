import { expect, test } from 'vitest';
import { warsawDate } from './dates';

test.each([
  ['2026-06-01T19:48:03Z', '2026-06-01'],
  ['2026-06-01T22:20:00Z', '2026-06-02'], // 00:20 in Warsaw (CEST) is already the next day
  ['2026-01-15T22:59:59Z', '2026-01-15'], // CET: 23:59:59
  ['2026-01-15T23:00:00Z', '2026-01-16'],
  ['2026-06-02T00:20:00+02:00', '2026-06-02'],
])('%s is %s in Warsaw', (iso, date) => expect(warsawDate(iso)).toBe(date));

test('refuses text that is not a date-time', () => expect(() => warsawDate('yesterday')).toThrow(RangeError));
