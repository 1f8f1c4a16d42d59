import { expect, test } from 'vitest';
import { formatDate, formatDecimal, formatExchangeRate, formatGrosze, formatMoney, formatQuantity, formatRateCode, SUMMARY_RATE_LABEL } from './format';

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

test('totals carry the currency code, PLN included, with no-break spaces', () => {
  expect(formatMoney(149_897, 'PLN')).toBe('1\u00a0498,97\u00a0PLN');
  expect(plain(formatMoney(-62_050, 'EUR'))).toBe('-620,50 EUR');
});

test.each([
  ['59.99', '59,99'],
  ['1299', '1 299,00'],
  ['1299.5', '1 299,50'],
  ['16.66666667', '16,66666667'],
  ['20.10000000', '20,10'],
  ['-5.00', '-5,00'],
])('FA(3) decimal %s → %s', (value, text) => expect(plain(formatDecimal(value))).toBe(text));

test('dates print day first', () => expect(formatDate('2026-06-02')).toBe('02.06.2026'));

test.each([
  ['3', '3'],
  ['-1', '-1'],
  ['1.500', '1,5'],
  ['0.000001', '0,000001'],
  ['2.0', '2'],
])('quantity %s → %s', (q, text) => expect(formatQuantity(q)).toBe(text));

test('exchange rates print with six decimals', () => expect(formatExchangeRate('4.2322')).toBe('4,232200'));

test.each([
  ['23', '23%'],
  ['8', '8%'],
  ['5', '5%'],
  ['0 KR', '0% - KR'],
  ['0 WDT', '0% - WDT'],
  ['0 EX', '0% - EX'],
  ['zw', 'zw'],
  ['np I', 'np I'],
])('P_12 %s prints as %s', (code, text) => expect(formatRateCode(code)).toBe(text));

test('VAT summary rows are labelled by the FA(3) field, not by one rate', () => {
  expect(SUMMARY_RATE_LABEL['1']).toBe('23% lub 22%');
  expect(SUMMARY_RATE_LABEL['2']).toBe('8% lub 7%');
  expect(SUMMARY_RATE_LABEL['3']).toBe('5%');
  expect(SUMMARY_RATE_LABEL['6_1']).toBe('0% w przypadku sprzedaży towarów i świadczenia usług na terytorium kraju (z wyłączeniem WDT i eksportu)');
});
