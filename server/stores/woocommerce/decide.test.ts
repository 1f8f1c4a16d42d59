import { describe, expect, it } from 'vitest';
import { fixtureOrder4817 } from '@/test/fixtures/wc-payloads';
import { decideOrder, refundIds } from './decide';

const settings = { invoiceStatuses: ['processing', 'completed'], nipMetaKeys: null, paymentMethods: {} };

describe('decideOrder', () => {
  it('invoices a paid B2B order through the shopplatform mapping', () => {
    const d = decideOrder(fixtureOrder4817(), settings);
    expect('invoice' in d && d.invoice.externalId).toBe('4817');
  });

  it('skips a B2C order as buyer_nip_missing', () => {
    const order = { ...fixtureOrder4817(), meta_data: [] };
    expect(decideOrder(order, settings)).toMatchObject({ skip: 'buyer_nip_missing' });
  });

  it('waits for a status that is not invoice-now', () => {
    expect(decideOrder({ ...fixtureOrder4817(), status: 'processing' }, { ...settings, invoiceStatuses: ['completed'] })).toMatchObject({
      skip: 'order_not_paid',
    });
    expect(decideOrder({ ...fixtureOrder4817(), status: 'on-hold' }, settings)).toMatchObject({ skip: 'order_not_paid' });
  });

  it('takes a custom invoice-now status as completed, and keeps cash on delivery waiting for completed', () => {
    expect('invoice' in decideOrder({ ...fixtureOrder4817(), status: 'shipped' }, { ...settings, invoiceStatuses: ['shipped'] })).toBe(true);
    expect(decideOrder({ ...fixtureOrder4817(), status: 'processing', payment_method: 'cod' }, settings)).toMatchObject({ skip: 'order_not_paid' });
  });

  it('records cancelled orders with their reason', () => {
    expect(decideOrder({ ...fixtureOrder4817(), status: 'cancelled' }, settings)).toMatchObject({ skip: 'order_cancelled' });
  });

  it('uses the store payment-method map over the defaults', () => {
    const d = decideOrder(fixtureOrder4817(), { ...settings, paymentMethods: { przelewy24: 'mobile' } });
    expect('invoice' in d && d.invoice.paymentMethod).toBe('mobile');
  });

  it('reads refund ids from the refunds summary', () => {
    expect(refundIds({ refunds: [{ id: 4822, total: '-79.99' }, { id: 'x' }] })).toEqual([4822]);
    expect(refundIds({})).toEqual([]);
  });
});
