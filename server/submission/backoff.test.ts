import { expect, test } from 'vitest';
import { pollDelayMs } from './backoff';

test('status polls are spaced by how long the decision has been awaited, never by how many polls came before', () => {
  // nothing before KSeF can have decided: the first poll after 1 s, then every 0.25 s while the wait is short
  expect(pollDelayMs(0)).toBe(1_000);
  expect(pollDelayMs(400)).toBe(600);
  expect(pollDelayMs(1_000)).toBe(250);
  expect(pollDelayMs(2_000)).toBe(250);
  expect(pollDelayMs(20_000)).toBe(2_000);
  expect(pollDelayMs(60_000)).toBe(6_000);
  // the probe's document: 13 minutes in sending is polled every 30 s at most, so a decision shows within 30 s
  expect(pollDelayMs(13 * 60_000)).toBe(30_000);
  expect(pollDelayMs(24 * 3_600_000)).toBe(30_000);
});

test('a Retry-After from KSeF is honoured when it is longer than the age-based delay', () => {
  expect(pollDelayMs(5_000, 10)).toBe(10_000);
  expect(pollDelayMs(600_000, 1)).toBe(30_000);
});
