import { expect, test } from 'vitest';
import { END_OF_2026_TOKENS, expiryState, tokenIssueDay, tokenValidTo } from './credential-expiry';

const token = (day: string) => `${day}-EC-2C3E6C8000-B675CF5D68-07|nip-5265877635|${'ab'.repeat(32)}`;

test.each([
  ['20251010', END_OF_2026_TOKENS],
  ['20261231', END_OF_2026_TOKENS],
  ['20270101', null], // a 2027 token's lifetime comes from an endpoint not yet published
])('a token issued on %s works until %s', (day, end) => {
  expect(tokenValidTo(token(day))).toEqual(end);
});

test('a token of another form has no known issue day, hence no known end', () => {
  expect(tokenIssueDay('not-a-token')).toBeNull();
  expect(tokenValidTo('not-a-token')).toBeNull();
});

test('expiry states: unknown, valid, within 30 days, past', () => {
  const now = new Date('2027-10-01T00:00:00Z');
  expect(expiryState(null, now)).toBe('unknown');
  expect(expiryState(END_OF_2026_TOKENS, now)).toBe('valid');
  expect(expiryState(END_OF_2026_TOKENS, new Date('2027-11-01T00:00:00Z'))).toBe('expiring');
  expect(expiryState(END_OF_2026_TOKENS, END_OF_2026_TOKENS)).toBe('expired');
});
