import { describe, expect, test } from 'vitest';
import { AppError } from '@/server/errors';
import { paidOrder } from '@/test/orders';
import { parseOrderInput, parseRefundInput } from './order-schema';

function errorOf(fn: () => unknown): { code: string; param: string | undefined } {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, param: err.param };
    throw err;
  }
  throw new Error('expected an AppError');
}

/** FA(3) XSD ranges (tax-rules 12): DataZaplaty is TData 2016-07-01..2050-01-01, DataZamowienia TDataU 1990-01-01..2050-01-01. */
describe('dates FA(3) cannot carry are refused before numbering', () => {
  test.each([['0000-01-01T00:00:00Z'], ['0001-06-01T12:00:00Z'], ['9999-12-31T12:00:00Z'], ['2016-06-30T12:00:00+02:00'], ['2050-01-02T12:00:00Z']])(
    'paid_at %s → parameter_invalid at order.paid_at',
    (paidAt) => {
      expect(errorOf(() => parseOrderInput(paidOrder({ paid_at: paidAt })))).toEqual({ code: 'parameter_invalid', param: 'order.paid_at' });
    },
  );

  test.each([['0000-01-01T00:00:00Z'], ['1989-12-31T12:00:00Z'], ['9999-01-01T00:00:00Z']])(
    'created_at %s → parameter_invalid at order.created_at',
    (createdAt) => {
      expect(errorOf(() => parseOrderInput(paidOrder({ created_at: createdAt })))).toEqual({ code: 'parameter_invalid', param: 'order.created_at' });
    },
  );

  test('the bounds themselves, in Warsaw time, are accepted', () => {
    // 2016-06-30T22:30Z is already 1 July in Warsaw (UTC+2)
    expect(parseOrderInput(paidOrder({ paid_at: '2016-06-30T22:30:00Z', created_at: '1990-01-01T12:00:00Z' })).paidAt).toBe('2016-06-30T22:30:00.000Z');
    // the upper bound with a clock that far ahead: the future-payment rule (issue 13) would refuse it today
    expect(parseOrderInput(paidOrder({ paid_at: '2050-01-01T12:00:00Z' }), new Date('2050-01-02T00:00:00Z')).paidAt).toBe('2050-01-01T12:00:00.000Z');
  });

  test('a refund dated in year 0 is refused at refund.created_at', () => {
    const refund = { external_id: 'r-1', created_at: '0000-01-01T00:00:00Z', lines: [{ name: 'Kubek', quantity: 1, unit_price: '10.00', vat_rate: '23' }] };
    expect(errorOf(() => parseRefundInput(refund))).toEqual({ code: 'parameter_invalid', param: 'refund.created_at' });
  });
});
