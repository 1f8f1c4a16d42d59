import { expect, test } from 'vitest';
import { isValidNip, normalizeNip } from './nip';

// the table of domain/nip.md §3
test.each([
  ['5265877635', '5265877635', true],
  ['3861610227', '3861610227', true],
  ['6808208874', '6808208874', true],
  ['1234563218', '1234563218', true],
  ['5265877636', '5265877636', false],
  ['1234567890', '1234567890', false],
  ['1010000000', '1010000000', false],
  ['0000000000', '0000000000', false],
  ['PL 526-587-76-35', '5265877635', true],
  ['386-161-02-27', '3861610227', true],
  ['pl5265877635', '5265877635', true],
  ['526 58 77 635', '5265877635', true],
  ['5265877635\u00a0', '5265877635', true],
  ['526–587–76–35', '5265877635', true],
  ['526.587.76.35', '5265877635', true],
  ['DE123456789', 'DE123456789', false],
  ['52658776', '52658776', false],
  ['52658776350', '52658776350', false],
] as const)('%j normalises to %s, valid: %s', (input, normalised, valid) => {
  expect(normalizeNip(input)).toBe(normalised);
  expect(isValidNip(normalizeNip(input))).toBe(valid);
});
