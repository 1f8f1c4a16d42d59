import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 text with at least `bits` bits of entropy (rejection sampling keeps it uniform). */
export function randomToken(bits: number): string {
  const length = Math.ceil(bits / Math.log2(ALPHABET.length));
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += ALPHABET[b % 62];
    }
  }
  return out;
}

export type IdPrefix = 'acct' | 'usr' | 'key' | 'inv' | 'cor' | 'evt' | 'we' | 'req' | 'file' | 'kss';

/** Object ids like `inv_3kT…`: 128 random bits, so ids cannot be guessed or enumerated. */
export const newId = (prefix: IdPrefix): string => `${prefix}_${randomToken(128)}`;
