const VAT_RATES = ['23', '8', '5', '0'] as const;

/**
 * The JSON body of POST /v1/invoices for a paid PLN order of `lines` lines (spec 2.4), as a function of the order's
 * external_id: the body is serialised once and only the id changes, so the load client spends its CPU on sending.
 */
export function orderBodyFactory(lines: number): (externalId: string) => string {
  const MARK = '__external_id__';
  const order = {
    external_id: MARK,
    number: MARK,
    created_at: '2026-11-20T10:00:00+01:00',
    paid_at: '2026-11-20T10:05:00+01:00',
    currency: 'PLN',
    payment_method: 'card',
    buyer: { nip: '5260250274', name: 'Kupiec sp. z o.o.', address_line1: 'ul. Długa 5', address_line2: '00-002 Warszawa', email: 'kupiec@example.test' },
    lines: Array.from({ length: lines }, (_, i) => ({
      name: `Produkt ${i + 1}`,
      sku: `SKU-${i + 1}`,
      quantity: (i % 3) + 1,
      unit_price: `${10 + (i % 90)}.${String((i * 7) % 100).padStart(2, '0')}`,
      ...(i % 4 === 0 && { discount: '1.00' }),
      vat_rate: VAT_RATES[i % VAT_RATES.length]!,
    })),
    shipping: [{ name: 'Kurier', price: '15.00', vat_rate: '23' }],
  };
  const [head, middle, tail] = JSON.stringify({ order }).split(MARK);
  if (head === undefined || middle === undefined || tail === undefined) throw new Error('order template lost its marks');
  return (externalId) => head + externalId + middle + externalId + tail;
}
