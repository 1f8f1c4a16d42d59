import { describe, expect, test } from 'vitest';
import { addWorkingDays } from '@/server/calendar/working-days';
import { failureDeadline, jpkMarkerOf, mayReachKsef, modeOfStatus, noticeAt, outageDeadline, type Notice } from './modes';

const at = (iso: string) => new Date(iso);
const notice = (id: number, mode: Notice['mode'], start: string, end: string | null): Notice => ({
  id,
  mode,
  startsAt: at(start),
  endsAt: end === null ? null : at(end),
});

describe('addWorkingDays', () => {
  test('seven working days skip weekends', () => expect(addWorkingDays('2026-03-02', 7)).toBe('2026-03-11'));
  test('and holidays: Easter Monday, 1 and 3 May', () => {
    expect(addWorkingDays('2026-04-02', 7)).toBe('2026-04-14'); // 3 Apr Fri, 6 Apr Easter Monday off
    expect(addWorkingDays('2026-04-29', 2)).toBe('2026-05-04'); // 1 May Fri, 2-3 May weekend
  });
});

describe('deadlines per mode', () => {
  test('offline24: the end of the next working day after P_1 (art. 106nda)', () => {
    expect(outageDeadline('offline24', '2026-02-06', null, [])?.toISOString()).toBe('2026-02-09T22:59:59.999Z');
  });

  test('unavailability: the end of the next working day after it ends (art. 106nh)', () => {
    const n = notice(4, 'unavailable', '2026-12-23T20:00:00Z', '2026-12-24T02:00:00Z');
    // ends on 24 December (Warsaw 03:00), a day off since 2025; 25, 26 and 27 too: Monday 28th
    expect(outageDeadline('unavailable', '2026-12-23', n, [n])?.toISOString()).toBe('2026-12-28T22:59:59.999Z');
  });

  test('unavailability without an announced end: no deadline yet', () => {
    const n = notice(4, 'unavailable', '2026-12-23T20:00:00Z', null);
    expect(outageDeadline('unavailable', '2026-12-23', n, [n])).toBeNull();
  });

  test('failure: 7 working days from the end in the notice (art. 106nf ust. 1)', () => {
    const n = notice(5, 'failure', '2026-03-02T08:00:00Z', '2026-03-03T12:00:00Z');
    expect(failureDeadline(n, [n])?.toISOString()).toBe('2026-03-12T22:59:59.999Z');
  });

  test('failure across Easter: Good Friday is a working day, Easter Monday is not', () => {
    const n = notice(5, 'failure', '2026-03-31T08:00:00Z', '2026-04-01T09:00:00Z');
    expect(failureDeadline(n, [n])?.toISOString()).toBe('2026-04-13T21:59:59.999Z'); // 2,3,7,8,9,10,13 April
  });

  test('a new failure within the count restarts it from its own end', () => {
    const first = notice(1, 'failure', '2026-03-02T08:00:00Z', '2026-03-03T12:00:00Z');
    const second = notice(2, 'failure', '2026-03-09T08:00:00Z', '2026-03-10T12:00:00Z');
    const third = notice(3, 'failure', '2026-03-19T08:00:00Z', '2026-03-19T12:00:00Z');
    expect(failureDeadline(first, [first, second])?.toISOString()).toBe('2026-03-19T22:59:59.999Z');
    // the third begins on the last day of the restarted count: restarted again
    expect(failureDeadline(first, [first, second, third])?.toISOString()).toBe('2026-03-30T21:59:59.999Z');
    expect(failureDeadline(second, [first, second])?.toISOString()).toBe('2026-03-19T22:59:59.999Z');
  });

  test('a failure after the count ran out does not restart it', () => {
    const first = notice(1, 'failure', '2026-03-02T08:00:00Z', '2026-03-03T12:00:00Z');
    const later = notice(2, 'failure', '2026-03-13T08:00:00Z', '2026-03-13T12:00:00Z');
    expect(failureDeadline(first, [first, later])?.toISOString()).toBe('2026-03-12T22:59:59.999Z');
  });

  test('a restarting failure without an end yet: no deadline yet', () => {
    const first = notice(1, 'failure', '2026-03-02T08:00:00Z', '2026-03-03T12:00:00Z');
    const open = notice(2, 'failure', '2026-03-05T08:00:00Z', null);
    expect(failureDeadline(first, [first, open])).toBeNull();
  });

  test('an unavailability does not restart a failure count', () => {
    const first = notice(1, 'failure', '2026-03-02T08:00:00Z', '2026-03-03T12:00:00Z');
    const maintenance = notice(4, 'unavailable', '2026-03-05T08:00:00Z', '2026-03-06T12:00:00Z');
    expect(failureDeadline(first, [first, maintenance])?.toISOString()).toBe('2026-03-12T22:59:59.999Z');
  });

  test('total failure: no deadline, the invoice stays outside KSeF (art. 106ng)', () => {
    const n = notice(6, 'total_failure', '2026-03-02T08:00:00Z', '2026-03-03T12:00:00Z');
    expect(outageDeadline('total_failure', '2026-03-02', n, [n])).toBeNull();
  });
});

describe('modes, markers and the send guard', () => {
  test('status service answers map to modes', () => {
    expect([modeOfStatus('AVAILABLE'), modeOfStatus('MAINTENANCE'), modeOfStatus('FAILURE'), modeOfStatus('TOTAL_FAILURE')]).toEqual([
      null,
      'unavailable',
      'failure',
      'total_failure',
    ]);
  });

  test('JPK markers: OFF for a failure, BFK for a total failure, DI for offline24 and unavailability', () => {
    expect([jpkMarkerOf('failure'), jpkMarkerOf('total_failure'), jpkMarkerOf('offline24'), jpkMarkerOf('unavailable'), jpkMarkerOf(null)]).toEqual([
      'OFF',
      'BFK',
      'DI',
      'DI',
      'DI',
    ]);
  });

  test('the gravest notice in force wins; an ended one is not in force', () => {
    const failure = notice(5, 'failure', '2026-03-02T08:00:00Z', null);
    const total = notice(6, 'total_failure', '2026-03-02T10:00:00Z', '2026-03-02T12:00:00Z');
    expect(noticeAt([failure, total], at('2026-03-02T09:00:00Z'))?.id).toBe(5);
    expect(noticeAt([failure, total], at('2026-03-02T11:00:00Z'))?.id).toBe(6);
    expect(noticeAt([failure, total], at('2026-03-02T12:00:00Z'))?.id).toBe(5);
    expect(noticeAt([total], at('2026-03-02T12:00:00Z'))).toBeNull();
  });

  test('nothing reaches KSeF during a total failure, and a total-failure invoice never does', () => {
    const total = notice(6, 'total_failure', '2026-03-02T10:00:00Z', '2026-03-02T12:00:00Z');
    expect(mayReachKsef([total], null, at('2026-03-02T11:00:00Z'))).toBe(false);
    expect(mayReachKsef([total], 'offline24', at('2026-03-02T11:00:00Z'))).toBe(false);
    expect(mayReachKsef([total], null, at('2026-03-02T12:00:00Z'))).toBe(true);
    expect(mayReachKsef([total], 'total_failure', at('2026-03-05T12:00:00Z'))).toBe(false);
    expect(mayReachKsef([notice(5, 'failure', '2026-03-02T10:00:00Z', null)], 'failure', at('2026-03-02T11:00:00Z'))).toBe(true);
  });
});
