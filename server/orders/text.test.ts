import { expect, test } from 'vitest';
import { cleanText } from './text';

test('clean text comes back as it is; anything else is cleaned, whatever path it takes', () => {
  for (const clean of ['Kawa ziarnista 1 kg', 'Żółć gęślą jaźń sp. z o.o.', 'ul. Marszałkowska 100/5', 'A&B "Łódź" <x>', 'x'.repeat(256)]) {
    expect(cleanText(clean)).toBe(clean);
  }
  expect(cleanText('  Kawa   ziarnista ')).toBe('Kawa ziarnista');
  expect(cleanText('Kawa\u00A0ziarnista')).toBe('Kawa ziarnista');
  expect(cleanText('Kawa\tziarnista\n')).toBe('Kawa ziarnista');
  expect(cleanText('Kawa\u0085\u007Fziarnista')).toBe('Kawa ziarnista');
  expect(cleanText('x'.repeat(257))).toBe('x'.repeat(256));
  expect(cleanText('abc', 2)).toBe('ab');
  expect(cleanText('Café 😀 ok')).toBe('Café 😀 ok');
  expect(cleanText('😀'.repeat(3), 2)).toBe('😀😀');
  expect(cleanText('')).toBe('');
});
