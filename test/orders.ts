import { randomToken } from '@/server/ids';

/** A valid paid order of spec 2.4 (two rates, shipping, a discount), with overrides. */
export function paidOrder(overrides: Record<string, unknown> = {}) {
  return {
    external_id: `order-${randomToken(48)}`,
    number: '1001',
    created_at: '2026-11-20T10:00:00Z',
    paid_at: '2026-11-20T10:05:00Z',
    currency: 'PLN',
    payment_method: 'card',
    buyer: { nip: 'PL 526-025-02-74', name: 'Kupiec sp. z o.o.', address_line1: 'ul. Długa 5', address_line2: '00-002 Warszawa', email: 'kupiec@example.test' },
    lines: [
      { name: 'Kubek ceramiczny', sku: 'KUB-1', quantity: 2, unit_price: '49.99', discount: '5.00', vat_rate: '23' },
      { name: 'Książka', sku: 'KS-7', quantity: 1, unit_price: '39.90', vat_rate: '5' },
    ],
    shipping: [{ name: 'Kurier', price: '15.00', vat_rate: '23' }],
    ...overrides,
  };
}
