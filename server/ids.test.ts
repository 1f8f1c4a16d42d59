import { expect, test } from 'vitest';
import { hasPrefix, idPattern, newId, randomToken, zId } from './ids';

test('newId makes ids that idPattern of their prefix accepts and of another prefix refuses', () => {
  const id = newId('inv');
  expect(id).toMatch(idPattern('inv'));
  expect(id).toMatch(idPattern('inv', 'cor'));
  expect(id).not.toMatch(idPattern('cor'));
  expect(hasPrefix(id, 'inv')).toBe(true);
  expect(hasPrefix(id, 'cor')).toBe(false);
});

test('idPattern refuses other shapes: no body, non-base62 characters, over 64 characters', () => {
  const pattern = idPattern('we');
  for (const bad of ['we_', 'we-abc', 'we_ab-c', `we_${'a'.repeat(65)}`, 'xwe_abc']) expect(bad).not.toMatch(pattern);
  expect(`we_${'a'.repeat(64)}`).toMatch(pattern);
});

test('zId names the accepted prefixes in its message', () => {
  expect(zId('inv', 'cor').safeParse('evt_1').error?.issues[0]?.message).toBe('must be an inv_ or cor_ id');
  expect(zId('we').safeParse('x').error?.issues[0]?.message).toBe('must be a we_ id');
  expect(zId('evt').safeParse('evt_abc').success).toBe(true);
});

test('tokens drawn across many refills of the random pool never repeat and use all 62 characters about evenly', () => {
  const tokens = Array.from({ length: 20_000 }, () => randomToken(128));
  expect(new Set(tokens).size).toBe(tokens.length);
  expect(tokens.every((t) => /^[0-9A-Za-z]{22}$/.test(t))).toBe(true);
  const counts = new Map<string, number>();
  for (const c of tokens.join('')) counts.set(c, (counts.get(c) ?? 0) + 1);
  // 440,000 characters: 7,097 expected each, standard deviation 84; a 10 % band is 8.5 of them (a byte taken
  // modulo 62 without the rejection would give the first eight characters 25 % more)
  expect(counts.size).toBe(62);
  for (const n of counts.values()) expect(Math.abs(n - 440_000 / 62)).toBeLessThan(710);
});
