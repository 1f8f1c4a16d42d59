import { randomFillSync } from 'node:crypto';
import { z } from 'zod';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes are drawn 4 KiB at a time and each is used once: one call into the system's generator (and
 * through Next.js's wrapper of it) per hundred ids instead of one per id, 2 % of the web's CPU per new invoice.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

function nextRandomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const b = pool[used]!;
  pool[used++] = 0; // a secret's bytes do not stay in memory after it is made
  return b;
}

/** Random base62 text with at least `bits` bits of entropy (rejection sampling keeps it uniform). */
export function randomToken(bits: number): string {
  const length = Math.ceil(bits / Math.log2(ALPHABET.length));
  let out = '';
  while (out.length < length) {
    const b = nextRandomByte();
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out;
}

/** The prefix of every kind of object id (spec §2: `inv_`, `cor_`, `acct_`, `we_`, `evt_`; the others are internal). */
export const ID_PREFIXES = ['acct', 'usr', 'key', 'inv', 'cor', 'evt', 'we', 'req', 'file', 'kss', 'st', 'mi', 'pr'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/** Object ids like `inv_3kT…`: 128 random bits, so ids cannot be guessed or enumerated. */
export const newId = (prefix: IdPrefix): string => `${prefix}_${randomToken(128)}`;

/** Whether `id` has the shape of an id with one of the prefixes (base62 body, as newId makes, at most 64 characters). */
export function idPattern(...prefixes: [IdPrefix, ...IdPrefix[]]): RegExp {
  return new RegExp(`^(${prefixes.join('|')})_[0-9A-Za-z]{1,64}$`);
}

export const hasPrefix = (id: string, prefix: IdPrefix): boolean => id.startsWith(`${prefix}_`);

/** A path or input id of the given kinds, e.g. zId('inv', 'cor') with the message "must be an inv_ or cor_ id". */
export function zId(...prefixes: [IdPrefix, ...IdPrefix[]]) {
  const names = prefixes.map((p) => `${p}_`).join(' or ');
  return z.string().regex(idPattern(...prefixes), `must be ${/^[aeiou]/.test(prefixes[0]) ? 'an' : 'a'} ${names} id`);
}
