import { describe, expect, test } from 'vitest';
import { formatGrosze, formatUnitPrice, formatGroszeQuotient, parseGrosze } from './money';

test.each([
  ['12.30', 1230],
  ['12.3', 1230],
  ['12', 1200],
  ['0.05', 5],
  ['-0.05', -5],
  ['-12.30', -1230],
  ['0', 0],
  ['-0.00', 0],
  ['9999999999999.99', 999_999_999_999_999],
] as const)('parses %s as %i grosze', (text, grosze) => expect(parseGrosze(text)).toBe(grosze));

test.each(['12.345', '1e3', '1E2', '12,30', ' 12.30', '+12.30', '.5', '12.', '', '--1', '0x10', 'NaN', '10000000000000.00'])('refuses %j', (text) =>
  expect(parseGrosze(text)).toBeNull(),
);

test.each([
  [1230, '12.30'],
  [-1230, '-12.30'],
  [5, '0.05'],
  [-5, '-0.05'],
  [0, '0.00'],
  [-0, '0.00'],
  [167877, '1678.77'],
] as const)('formats %i as %s', (grosze, text) => expect(formatGrosze(grosze)).toBe(text));

test('formatting refuses fractions of a grosz', () => expect(() => formatGrosze(1.5)).toThrow(RangeError));

test('round-trips every amount from -10.00 to 10.00', () => {
  for (let g = -1000; g <= 1000; g++) expect(parseGrosze(formatGrosze(g))).toBe(g);
});

test.each([
  [17997, 3, '59.99'],
  [10000, 3, null],
  [10000, 8, '12.50'],
  [1, 8, '0.00125'],
  [-5999, 1, '-59.99'],
  [100, 256, '0.00390625'],
] as const)('%i / %i as a unit price is %s', (grosze, divisor, text) => expect(formatGroszeQuotient(grosze, divisor)).toBe(text));

describe('formatUnitPrice (P_9A/P_9B, TKwotowy2: 8 decimals)', () => {
  test.each([
    [5_999, 1, '59.99'],
    [11_331, 2, '56.655'],
    [8_601, 7, '12.28714286'], // 7 items for 86.01: 12.287142857… rounded at the 8th decimal
    [2_000, 3, '6.66666667'],
    [-8_601, 7, '-12.28714286'],
    [1, 3, '0.00333333'],
  ])('%i gr / %i → %s', (grosze, quantity, text) => expect(formatUnitPrice(grosze, quantity)).toBe(text));
});
