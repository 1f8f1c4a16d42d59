import { expect, test } from 'vitest';
import { ERROR_TYPES, ERRORS } from './error-codes';

test('every error type names at least one code (the table may use only listed types: the compiler holds that)', () => {
  expect(new Set(Object.values(ERRORS).map((e) => e.type))).toEqual(new Set(ERROR_TYPES));
});
