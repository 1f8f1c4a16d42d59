import { describe, expect, test } from 'vitest';
import { deadlineState, offline24Deadline } from './offline-deadline';
import { warsawStartOfDay } from './warsaw-time';
import { easterSunday, isWorkingDay, nextWorkingDay, polishHolidays } from './working-days';

describe('easterSunday', () => {
  test.each([
    [2019, '2019-04-21'],
    [2024, '2024-03-31'],
    [2025, '2025-04-20'],
    [2026, '2026-04-05'],
    [2038, '2038-04-25'],
  ])('%i → %s', (year, date) => expect(easterSunday(year)).toBe(date));
});

describe('isWorkingDay', () => {
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
  ])('%s → %s', (date, expected) => expect(isWorkingDay(date)).toBe(expected));

  test('a year has 13 or 14 statutory holidays depending on the 24 December rule', () => {
    expect(polishHolidays(2024).size).toBe(13);
    expect(polishHolidays(2026).size).toBe(14);
  });
});

describe('nextWorkingDay', () => {
  test.each([
    ['2026-02-02', '2026-02-03'], // Monday → Tuesday
    ['2026-02-06', '2026-02-09'], // Friday → Monday
    ['2026-02-07', '2026-02-09'], // Saturday → Monday
    ['2026-04-03', '2026-04-07'], // Good Friday → past Easter Monday
    ['2026-12-23', '2026-12-28'], // 24, 25, 26 December and a Sunday
    ['2025-07-08', '2025-07-09'], // the docs' worked example: issued 8 July, due 9 July
  ])('%s → %s', (date, next) => expect(nextWorkingDay(date)).toBe(next));
});

describe('offline24Deadline', () => {
  test('the end of the next working day, Warsaw winter time', () => {
    expect(offline24Deadline('2026-02-06').toISOString()).toBe('2026-02-09T22:59:59.999Z');
  });

  test('the end of the next working day, Warsaw summer time', () => {
    expect(offline24Deadline('2026-06-03').toISOString()).toBe('2026-06-05T21:59:59.999Z'); // 4 June is Corpus Christi
  });

  test('across the change to summer time (29 March 2026)', () => {
    expect(warsawStartOfDay('2026-03-29').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(warsawStartOfDay('2026-03-30').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(offline24Deadline('2026-03-27').toISOString()).toBe('2026-03-30T21:59:59.999Z');
  });

  test('deadline state: on time, at risk in the last six hours, missed after', () => {
    const deadline = offline24Deadline('2026-02-06');
    expect(deadlineState(deadline, new Date('2026-02-09T10:00:00Z'))).toBe('on_time');
    expect(deadlineState(deadline, new Date('2026-02-09T20:00:00Z'))).toBe('at_risk');
    expect(deadlineState(deadline, new Date('2026-02-09T23:00:00Z'))).toBe('missed');
  });
});
