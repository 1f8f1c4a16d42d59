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

test('a text over the limit keeps its first code points, a surrogate pair counting as one and never split', () => {
  expect(cleanText('a😀b😀', 2)).toBe('a😀');
  expect(cleanText('😀a😀', 3)).toBe('😀a😀');
  expect(cleanText('ab cd', 3)).toBe('ab');
  expect(cleanText('\u{1D516}'.repeat(600), 512)).toBe('\u{1D516}'.repeat(512));
  expect(cleanText(`Kawa\u0000${'ż'.repeat(300)}`)).toBe(`Kawa ${'ż'.repeat(251)}`);
});
