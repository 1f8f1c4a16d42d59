/** Polish NIP rules of domain/nip.md: normalise what a customer typed, then verify the checksum. */
const WEIGHTS = [6, 5, 7, 2, 3, 4, 5, 6, 7] as const;
/** FA(3) etd:TNrNIP: the arithmetic alone lets 0000000000 through. */
const XSD_PATTERN = /^[1-9]((\d[1-9])|([1-9]\d))\d{7}$/;

/** Strips whitespace (also NBSP), hyphens, en dashes, dots and a leading PL; other input comes back trimmed and upper-cased. */
export function normalizeNip(input: string): string {
  const compact = input
    .trim()
    .toUpperCase()
    .replace(/[\s\u00a0\u2013\-.]/g, '');
  return compact.startsWith('PL') ? compact.slice(2) : compact;
}

/** True when `nip` is exactly 10 digits with a correct check digit and matches the FA(3) pattern. */
export function isValidNip(nip: string): boolean {
  if (!/^\d{10}$/.test(nip) || !XSD_PATTERN.test(nip)) return false;
  const digits = [...nip].map(Number);
  const sum = WEIGHTS.reduce((acc, w, i) => acc + w * (digits[i] ?? 0), 0);
  const check = sum % 11;
  return check !== 10 && check === digits[9];
}
