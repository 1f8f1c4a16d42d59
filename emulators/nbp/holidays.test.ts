import { describe, expect, test } from 'vitest';
import { easterSunday, isPublicationDay, polishHolidays } from './holidays';

describe('easterSunday', () => {
  test.each([
    [2019, '2019-04-21'],
    [2024, '2024-03-31'],
    [2025, '2025-04-20'],
    [2026, '2026-04-05'],
    [2038, '2038-04-25'],
  ])('%i → %s', (year, date) => expect(easterSunday(year)).toBe(date));
});

describe('isPublicationDay', () => {
  test.each([
    ['2026-05-29', true], // Friday
    ['2026-05-30', false], // Saturday
    ['2026-05-31', false], // Sunday
    ['2026-06-04', false], // Corpus Christi
    ['2026-04-06', false], // Easter Monday
    ['2026-05-01', false],
    ['2026-05-04', true],
    ['2026-11-11', false],
    ['2026-12-24', false], // a day off since 2025
    ['2024-12-24', true],
    ['2026-12-31', true],
  ])('%s → %s', (date, expected) => expect(isPublicationDay(date)).toBe(expected));

  test('a year has 13 or 14 statutory holidays depending on the 24 December rule', () => {
    expect(polishHolidays(2024).size).toBe(13);
    expect(polishHolidays(2026).size).toBe(14);
  });
});
