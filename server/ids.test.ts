import { expect, test } from 'vitest';
import { hasPrefix, idPattern, newId, zId } from './ids';

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
