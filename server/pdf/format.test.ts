import { expect, test } from 'vitest';
import { formatDate, formatGrosze, formatMoney, formatQuantity } from './format';

const plain = (s: string) => s.replace(/\u00a0/g, ' ');

test.each([
  { grosze: 0, text: '0,00' },
  { grosze: 5, text: '0,05' },
  { grosze: 99_999, text: '999,99' },
  { grosze: 123_456, text: '1 234,56' },
  { grosze: 100_000_000, text: '1 000 000,00' },
  { grosze: -7_999, text: '-79,99' },
  { grosze: -123_456_789, text: '-1 234 567,89' },
])('$grosze gr → "$text"', ({ grosze, text }) => expect(plain(formatGrosze(grosze))).toBe(text));

test('rejects fractional grosze', () => expect(() => formatGrosze(1.5)).toThrow(/integer/));

test('PLN prints zł, other currencies their code, with no-break spaces', () => {
  expect(formatMoney(149_897, 'PLN')).toBe('1\u00a0498,97\u00a0zł');
  expect(plain(formatMoney(-62_050, 'EUR'))).toBe('-620,50 EUR');
});

test('dates print day first', () => expect(formatDate('2026-06-02')).toBe('02.06.2026'));

test.each([
  ['3', '3'],
  ['-1', '-1'],
  ['1.500', '1,5'],
  ['0.000001', '0,000001'],
  ['2.0', '2'],
])('quantity %s → %s', (q, text) => expect(formatQuantity(q)).toBe(text));
