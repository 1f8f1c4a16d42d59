import { AppError } from '@/server/errors';
import { parseGrosze } from '@/server/orders/money';
import { parseVatRate, vatRateList, type VatRate } from '@/server/facts/vat-rates';
import type { WcTax, WcTaxLine } from './wc-schema';

/** Small readers shared by the order and refund mappings; `param` paths are full JSON paths. */

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  times: '×',
  hellip: '…',
  bdquo: '„',
  rdquo: '”',
  ldquo: '“',
  rsquo: '’',
  lsquo: '‘',
};

/** Product names come HTML-escaped from WordPress (`&ndash;`, `&#8211;`); invoices need the characters. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/** A WooCommerce formatted amount ("1056.10") in grosze. */
export function wcGrosze(text: string, param: string): number {
  const grosze = parseGrosze(text.trim());
  if (grosze === null) throw new AppError('parameter_invalid', param, `${param}: "${text}" is not an amount with at most 2 decimals (set dp=2)`);
  return grosze;
}

/** Raw per-rate tax strings may carry 6+ decimals ("242.902439"); only "is it zero" matters here. */
const isZero = (v: string | number | null | undefined) => v === null || v === undefined || /^-?0*\.?0*$/.test(String(v).trim());

/**
 * The VAT rate of an order or refund item, from its `taxes` and the `tax_lines` rate percentages
 * (woocommerce.md §3.1): one non-zero tax → its rate; only zero taxes at a 0 % rate → 0; no tax → vat_rate_missing.
 */
export function resolveRate(taxes: readonly WcTax[], taxLines: readonly WcTaxLine[], param: string): VatRate {
  // a line a coupon made free still shows its rate in the tax before the discount
  const charged = taxes.some((t) => !isZero(t.total)) ? taxes.filter((t) => !isZero(t.total)) : taxes.filter((t) => !isZero(t.subtotal));
  if (charged.length > 1)
    throw new AppError('vat_rate_unsupported', param, `${param}: several tax rates on one item (compound or stacked taxes) are not Polish VAT`);
  const percentOf = (t: WcTax) => taxLines.find((l) => l.rate_id === t.id)?.rate_percent;
  const [tax] = charged;
  if (tax) {
    const percent = percentOf(tax);
    if (percent === null || percent === undefined)
      throw new AppError('vat_rate_missing', param, `${param}: tax rate ${tax.id} has no rate_percent in tax_lines`);
    const rate = parseVatRate(String(percent));
    if (rate === null || rate === 0) throw new AppError('vat_rate_unsupported', param, `${param}: rate ${percent} % is not one of ${vatRateList()}`);
    return rate;
  }
  if (taxes.some((t) => percentOf(t) === 0)) return 0;
  throw new AppError('vat_rate_missing', param, `${param}: the item carries no tax, so its VAT rate is unknown`);
}

/** Meta values are strings, numbers or structures; only scalar text can be a NIP or an item id. */
export function metaText(meta: readonly { key: string; value: unknown }[], key: string): string | null {
  const value = meta.find((m) => m.key === key)?.value;
  return typeof value === 'string' || typeof value === 'number' ? String(value).trim() || null : null;
}

/** `_gmt` fields are UTC without the Z (woocommerce.md §2). */
export function gmtToIso(value: string, param: string): string {
  const instant = new Date(`${value.trim().replace(' ', 'T')}Z`);
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}$/.test(value.trim()) || Number.isNaN(instant.getTime())) {
    throw new AppError('parameter_invalid', param, `${param}: "${value}" is not a WooCommerce GMT date-time`);
  }
  return instant.toISOString();
}
