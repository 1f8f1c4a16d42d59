import { AppError } from '@/server/errors';
import type { PaymentMethod } from '@/server/orders/types';
import { DEFAULT_NIP_META_KEYS, DEFAULT_PAYMENT_METHODS, mapShopplatformOrder } from '@/server/orders/woocommerce/map-order';
import type { OrderDecision, StoreSettings } from '../platform';

const MAPPED_PAID = new Set(['processing', 'completed']);
const CANCELLED = new Set(['cancelled', 'refunded', 'failed', 'trash']);
const PAYMENT_METHODS = new Set<PaymentMethod>(['transfer', 'card', 'cash', 'mobile']);

/**
 * Whether a store order becomes an invoice now, through the same mapping as `shopplatform_order`: its status must
 * be one of the store's invoice-now statuses (a custom paid status counts as completed for the mapping; cash on
 * delivery still waits for completed), then the mapping decides (paid date, NIP, lines). A skip carries the
 * mapping's error code: `buyer_nip_missing` is a B2C order.
 */
export function decideOrder(wcOrder: unknown, settings: StoreSettings): OrderDecision {
  const status = (wcOrder as { status?: unknown } | null)?.status;
  if (typeof status === 'string' && !CANCELLED.has(status) && !settings.invoiceStatuses.includes(status)) {
    return { skip: 'order_not_paid', message: `status ${status} is not an invoice-now status (${settings.invoiceStatuses.join(', ')})` };
  }
  const input =
    typeof status === 'string' && settings.invoiceStatuses.includes(status) && !MAPPED_PAID.has(status)
      ? { ...(wcOrder as object), status: 'completed' }
      : wcOrder;
  const paymentMethods = { ...DEFAULT_PAYMENT_METHODS };
  for (const [gateway, method] of Object.entries(settings.paymentMethods))
    if (PAYMENT_METHODS.has(method as PaymentMethod)) paymentMethods[gateway] = method as PaymentMethod;
  try {
    return { invoice: mapShopplatformOrder(input, { nipMetaKeys: settings.nipMetaKeys ?? DEFAULT_NIP_META_KEYS, paymentMethods }) };
  } catch (err) {
    if (err instanceof AppError) return { skip: err.code, message: err.message };
    throw err;
  }
}

/** Refund ids listed in the order's `refunds[]` summary (WooCommerce has no refund topic, woocommerce-rules.md §1.6). */
export function refundIds(wcOrder: unknown): number[] {
  const refunds = (wcOrder as { refunds?: unknown } | null)?.refunds;
  if (!Array.isArray(refunds)) return [];
  return refunds.map((r) => Number((r as { id?: unknown })?.id)).filter((id) => Number.isInteger(id) && id > 0);
}
