import { expect, test } from 'vitest';
import { crc8, formatKsefNumber, isValidKsefNumber } from './ksef-number';

test('CRC-8 has the SMBUS check value', () => {
  expect(crc8('123456789')).toBe('F4');
});

test.each(['5265877635-20250826-0100001AF629-AF', '5265877635-20250626-010080DD2B5E-26', '5265877635-20250916-0200A0D6723E-C2'])(
  'the documented number %s is valid',
  (n) => expect(isValidKsefNumber(n)).toBe(true),
);

test.each([
  ['wrong checksum', '5265877635-20250826-0100001AF629-AE'],
  ['lower-case hex', '5265877635-20250826-0100001af629-AF'],
  ['36-char KSeF 1.0 shape', '5265877635-20250826-0100001-AF629-AF'],
  ['empty', ''],
])('%s is rejected', (_why, n) => expect(isValidKsefNumber(n)).toBe(false));

test('formatKsefNumber appends the checksum of the first 32 characters', () => {
  const n = formatKsefNumber('5265877635', '20250826', '0100001AF629');
  expect(n).toBe('5265877635-20250826-0100001AF629-AF');
  expect(() => formatKsefNumber('123', '20250826', '0100001AF629')).toThrow();
});
