import { AppError } from '@/server/errors';
import { toAppError } from '@/server/orders/input-errors';
import { cleanText } from '@/server/orders/text';
import type { NormalizedRefund, NormalizedRefundLine } from '@/server/orders/types';
import { decodeEntities, gmtToIso, metaText, resolveRate, wcGrosze } from './wc-values';
import { ZWcOrder, ZWcRefund } from './wc-schema';

const ROOT = 'shopplatform_refund';

/** Splits a returned gross that does not divide by the quantity into two lines whose prices differ by a grosz. */
function splitEvenly(line: Omit<NormalizedRefundLine, 'quantity' | 'unitPriceGrosze'>, quantity: number, gross: number): NormalizedRefundLine[] {
  const base = Math.floor(gross / quantity);
  const extra = gross - base * quantity;
  return [
    { ...line, quantity: quantity - extra, unitPriceGrosze: base },
    { ...line, quantity: extra, unitPriceGrosze: base + 1 },
  ].filter((l) => l.quantity > 0);
}

/**
 * A WooCommerce refund of `wcOrder` (body keys `shopplatform_order` + `shopplatform_refund`) → NormalizedRefund.
 * Refund amounts and quantities are negative in WooCommerce (woocommerce.md §6); here they become positive
 * returned quantities and refunded gross. A refund without items is amount-only: order_unprocessable.
 */
export function mapShopplatformRefund(wcOrder: unknown, wcRefund: unknown): NormalizedRefund {
  const order = ZWcOrder.safeParse(wcOrder);
  if (!order.success) throw toAppError(order.error, wcOrder, 'shopplatform_order');
  const parsed = ZWcRefund.safeParse(wcRefund);
  if (!parsed.success) throw toAppError(parsed.error, wcRefund, ROOT);
  const o = order.data;
  const r = parsed.data;
  const taxLines = [...r.tax_lines, ...o.tax_lines];

  const returned = [
    ...r.line_items.map((item, i) => ({ item, at: `${ROOT}.line_items[${i}]`, goods: true })),
    ...r.fee_lines.map((item, i) => ({ item: { ...item, quantity: -1 }, at: `${ROOT}.fee_lines[${i}]`, goods: false })),
  ];
  const lines = returned.flatMap(({ item, at, goods }): NormalizedRefundLine[] => {
    const gross = -(wcGrosze(item.total, `${at}.total`) + wcGrosze(item.total_tax, `${at}.total_tax`));
    if (gross === 0 && item.quantity === 0) return [];
    if (item.quantity === 0)
      throw new AppError(
        'order_unprocessable',
        `${at}.quantity`,
        'a value-only refund of a line (quantity 0) cannot become a difference row with returned items',
      );
    if (item.quantity > 0 || gross < 0) throw new AppError('order_unprocessable', `${at}.quantity`, 'refund quantities and amounts must be negative');
    const originalId = metaText(item.meta_data, '_refunded_item_id');
    const original = [...o.line_items, ...o.fee_lines].find((l) => String(l.id) === originalId);
    const name = decodeEntities(original?.name ?? item.name).trim();
    const sku = ('sku' in item ? item.sku : null)?.trim();
    const line = {
      ref: `WC-${r.id}-${item.id}`,
      invoiceLineRef: originalId ? `WC-${o.id}-${originalId}` : null,
      name: cleanText(name, 512),
      sku: sku && sku.length <= 50 ? sku : null,
      vatRate: resolveRate(item.taxes, taxLines, `${at}.taxes`),
    };
    const quantity = -item.quantity;
    // WooCommerce counts items as refunded (quantity) apart from the money; items refunded for less than they were
    // sold for (over a grosz each) came back with a fee kept, not a price cut on goods the buyer keeps
    const sold = goods && original && 'quantity' in original && original.quantity > 0 ? original : null;
    if (sold) {
      const soldGross = wcGrosze(sold.total, `${at}.total`) + wcGrosze(sold.total_tax, `${at}.total_tax`);
      if (gross * sold.quantity < quantity * soldGross - quantity * sold.quantity) {
        const unit = Math.round(soldGross / sold.quantity);
        return [{ ...line, quantity, unitPriceGrosze: unit, feeGrosze: Math.max(0, quantity * unit - gross) }];
      }
    }
    return splitEvenly(line, quantity, gross);
  });

  const shippingGross = -r.shipping_lines.reduce(
    (s, l, i) => s + wcGrosze(l.total, `${ROOT}.shipping_lines[${i}].total`) + wcGrosze(l.total_tax, `${ROOT}.shipping_lines[${i}].total_tax`),
    0,
  );
  if (shippingGross < 0) throw new AppError('order_unprocessable', `${ROOT}.shipping_lines`, 'refunded shipping must be negative');
  const [firstShipping] = r.shipping_lines;
  if (lines.length === 0 && shippingGross === 0) {
    throw new AppError(
      'order_unprocessable',
      `${ROOT}.line_items`,
      'an amount-only refund cannot be split by VAT rate: refund items or shipping in WooCommerce',
    );
  }
  const reason = r.reason && cleanText(r.reason, 256);
  return {
    externalId: String(r.id),
    reason: reason || null,
    createdAt: r.date_created_gmt ? gmtToIso(r.date_created_gmt, `${ROOT}.date_created_gmt`) : null,
    lines,
    shippingGrosze: shippingGross > 0 ? shippingGross : null,
    shippingRef: shippingGross > 0 && firstShipping ? `WC-${r.id}-${firstShipping.id}` : null,
  };
}
