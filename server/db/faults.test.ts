import { expect, test } from 'vitest';
import { isDatabaseUnavailable } from './faults';

const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });

test('a lost or refused connection is the database being unavailable, also when drizzle wraps it', () => {
  expect(isDatabaseUnavailable(withCode('CONNECT_TIMEOUT'))).toBe(true);
  expect(isDatabaseUnavailable(withCode('57P01', 'terminating connection due to administrator command'))).toBe(true);
  expect(isDatabaseUnavailable(withCode('08006'))).toBe(true);
  expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: withCode('CONNECTION_CLOSED') }))).toBe(true);
  expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: withCode('ECONNREFUSED') }))).toBe(true);
});

test("a refused socket under fetch (KSeF, NBP, a webhook receiver) is not the database's", () => {
  expect(isDatabaseUnavailable(Object.assign(new TypeError('fetch failed'), { cause: withCode('ECONNREFUSED') }))).toBe(false);
});

test('a wrong statement, a constraint or an application error is not', () => {
  expect(isDatabaseUnavailable(withCode('23505', 'duplicate key'))).toBe(false);
  expect(isDatabaseUnavailable(withCode('42P01', 'relation does not exist'))).toBe(false);
  expect(isDatabaseUnavailable(new Error('Failed query', { cause: withCode('22P02') }))).toBe(false);
  expect(isDatabaseUnavailable(new Error('KSeF did not answer'))).toBe(false);
  expect(isDatabaseUnavailable('CONNECT_TIMEOUT')).toBe(false);
});
