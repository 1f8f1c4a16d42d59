import { expect, test } from 'vitest';
import { parseVatRate, vatRateList } from './vat-rates';

test('parses the API rate strings only', () => {
  expect(['23', '8', '5', '0'].map(parseVatRate)).toEqual([23, 8, 5, 0]);
  expect(['22', '7', 'zw', '23%', '23.00', '', '08'].map(parseVatRate)).toEqual([null, null, null, null, null, null, null]);
});

test('vatRateList writes the supported rates as prose for messages', () => {
  expect(vatRateList()).toBe('23, 8, 5, 0');
  expect(vatRateList('or')).toBe('23, 8, 5 or 0');
  expect(vatRateList('and')).toBe('23, 8, 5 and 0');
  expect(vatRateList('lub')).toBe('23, 8, 5 lub 0');
});
