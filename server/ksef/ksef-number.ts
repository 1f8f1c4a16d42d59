/**
 * KSeF numbers (README §9): `NIP-YYYYMMDD-TTTTTTTTTTTT-CC`, where CC is CRC-8 (poly 0x07, init 0, no reflection)
 * over the ASCII of the first 32 characters, hyphens included. Reference numbers end in the same checksum.
 */
export function crc8(text: string): string {
  let c = 0;
  for (const b of Buffer.from(text, 'ascii')) {
    c ^= b;
    for (let i = 0; i < 8; i++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
  }
  return c.toString(16).toUpperCase().padStart(2, '0');
}

const KSEF_NUMBER = /^\d{10}-\d{8}-[0-9A-F]{12}-[0-9A-F]{2}$/;

/** True for a 35-character KSeF 2.0 number whose checksum matches. */
export function isValidKsefNumber(n: string): boolean {
  return KSEF_NUMBER.test(n) && crc8(n.slice(0, 32)) === n.slice(33);
}

/** Builds a KSeF number from the seller NIP, the acceptance day (YYYYMMDD) and 12 upper-case hex characters. */
export function formatKsefNumber(nip: string, yyyymmdd: string, technical: string): string {
  const body = `${nip}-${yyyymmdd}-${technical}`;
  if (!/^\d{10}-\d{8}-[0-9A-F]{12}$/.test(body)) throw new Error(`formatKsefNumber: bad parts ${body}`);
  return `${body}-${crc8(body)}`;
}
