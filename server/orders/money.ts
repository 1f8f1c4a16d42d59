/**
 * Money is integer grosze (hundredths of the currency unit) everywhere; these are the only conversions
 * between grosze and decimal text. Input amounts are strings so that no float ever touches them.
 */
const AMOUNT = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/;

/** "12.3" → 1230, "-0.05" → -5; null for numbers in other shapes (exponents, 3 decimals, commas, blanks). */
export function parseGrosze(text: string): number | null {
  const m = AMOUNT.exec(text);
  if (!m) return null;
  const [, sign, units = '0', fraction = ''] = m;
  const value = Number(units) * 100 + Number(fraction.padEnd(2, '0'));
  return sign === '-' && value !== 0 ? -value : value;
}

/** 1230 → "12.30", -1230 → "-12.30", always two decimals (FA(3) TKwotowy and the API both expect it). */
export function formatGrosze(grosze: number): string {
  if (!Number.isSafeInteger(grosze)) throw new RangeError(`not an integer amount of grosze: ${grosze}`);
  const abs = Math.abs(grosze);
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return grosze < 0 ? `-${text}` : text;
}

/**
 * grosze / divisor as decimal text with up to `maxDecimals` decimals (at least 2), or null when the
 * quotient does not terminate within them. Used for unit prices (FA(3) TKwotowy2 allows 8 decimals).
 */
export function formatGroszeQuotient(grosze: number, divisor: number, maxDecimals = 8): string | null {
  if (!Number.isSafeInteger(grosze) || !Number.isSafeInteger(divisor) || divisor <= 0) {
    throw new RangeError(`bad quotient ${grosze} / ${divisor}`);
  }
  const scale = 10n ** BigInt(maxDecimals - 2);
  const scaled = BigInt(Math.abs(grosze)) * scale;
  if (scaled % BigInt(divisor) !== 0n) return null;
  const q = scaled / BigInt(divisor);
  const units = q / (100n * scale);
  let fraction = (q % (100n * scale)).toString().padStart(maxDecimals, '0').replace(/0+$/, '');
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0');
  return `${grosze < 0 && q !== 0n ? '-' : ''}${units}.${fraction}`;
}

/**
 * A unit price as FA(3) P_9A/P_9B text (TKwotowy2: up to 8 decimals): value / quantity exactly when it terminates
 * within 8 decimals, else rounded half away from zero at the 8th. 8601 gr / 7 → "12.28714286".
 */
export function formatUnitPrice(valueGrosze: number, quantity: number): string {
  const exact = formatGroszeQuotient(valueGrosze, quantity);
  if (exact !== null) return exact;
  const scaled = BigInt(Math.abs(valueGrosze)) * 10n ** 6n;
  const q = (2n * scaled + BigInt(quantity)) / (2n * BigInt(quantity));
  const text = q.toString().padStart(9, '0');
  return `${valueGrosze < 0 ? '-' : ''}${text.slice(0, -8)}.${text.slice(-8)}`;
}
