import { expect, test } from 'vitest';
import { readEnrolmentError } from './enrol-offline-certificate';

test('a kept enrolment failure comes back with its cause and values; an older English text as it is', () => {
  expect(readEnrolmentError(JSON.stringify({ detail: 'enrol_refused', params: { reason: '400 Bad request' } }))).toEqual({
    detail: 'enrol_refused',
    params: { reason: '400 Bad request' },
    text: 'KSeF refused the enrolment: 400 Bad request',
  });
  expect(readEnrolmentError('KSeF refused the login: expired')).toEqual({ detail: null, params: {}, text: 'KSeF refused the login: expired' });
  expect(readEnrolmentError(JSON.stringify({ detail: 'no_such_cause', params: {} }))?.detail).toBeNull();
  expect(readEnrolmentError(null)).toBeNull();
});
