import { expect, test } from 'vitest';
import { seal, unseal } from './seal';

test('sealed text round-trips and does not contain the plaintext', () => {
  const s = seal('whsec_topsecret', 'k'.repeat(32));
  expect(s).not.toContain('topsecret');
  expect(unseal(s, 'k'.repeat(32))).toBe('whsec_topsecret');
});

test('a wrong key or a tampered value is refused', () => {
  const s = seal('token', 'a'.repeat(32));
  expect(() => unseal(s, 'b'.repeat(32))).toThrow();
  const parts = s.split('.');
  parts[3] = Buffer.from('x').toString('base64url');
  expect(() => unseal(parts.join('.'), 'a'.repeat(32))).toThrow();
});
