import { expect, test } from 'vitest';
import { readLocale } from './locale';
import { plural } from './plural';

test('the remembered choice wins; without it the browser’s first language of ours, else Polish', () => {
  expect(readLocale('en', 'pl-PL,pl;q=0.9')).toBe('en');
  expect(readLocale('pl', 'en-GB')).toBe('pl');
  expect(readLocale(undefined, 'en-GB,en;q=0.9,pl;q=0.8')).toBe('en');
  expect(readLocale(undefined, 'de-DE,pl;q=0.5,en;q=0.7')).toBe('en');
  expect(readLocale(undefined, 'en;q=0,pl')).toBe('pl');
  expect(readLocale('fr', 'de-DE')).toBe('pl');
  expect(readLocale(undefined, null)).toBe('pl');
});

test('counts take the noun’s plural form of their language', () => {
  const documents = { one: '{n} dokument', few: '{n} dokumenty', many: '{n} dokumentów', other: '{n} dokumentu' };
  expect([1, 2, 4, 5, 12, 22, 25, 0].map((n) => plural('pl', n, documents))).toEqual([
    '1 dokument',
    '2 dokumenty',
    '4 dokumenty',
    '5 dokumentów',
    '12 dokumentów',
    '22 dokumenty',
    '25 dokumentów',
    '0 dokumentów',
  ]);
  expect(plural('pl', 1.5, documents)).toBe('1,5 dokumentu');
  expect([1, 3].map((n) => plural('en', n, { one: '{n} document', other: '{n} documents' }))).toEqual(['1 document', '3 documents']);
});
