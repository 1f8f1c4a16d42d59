import { expect, test } from 'vitest';
import { parseOrderInput } from '@/server/orders/order-schema';
import { paidOrder } from '@/test/orders';
import { invoiceWarnings } from './prepare-document';

const NOW = new Date('2026-12-01T12:00:00Z');
const lateCodes = (order: object, issueDate: string) =>
  invoiceWarnings(parseOrderInput(order, NOW), issueDate)
    .filter((w) => w.code === 'invoice_late')
    .map((w) => w.message);

test('delivered 20.10, paid 20.11, issued 20.11: late since 15.11, the delivery month counts (art. 106i ust. 1)', () => {
  expect(lateCodes(paidOrder({ delivered_at: '2026-10-20', paid_at: '2026-11-20T10:05:00Z' }), '2026-11-20')).toEqual([
    expect.stringMatching(/^Issued 2026-11-20, after 2026-11-15: /),
  ]);
});

test('paid 20.11 and delivered later: on time until 15.12 (art. 106i ust. 2)', () => {
  expect(lateCodes(paidOrder({ paid_at: '2026-11-20T10:05:00Z', delivered_at: '2026-11-25' }), '2026-11-30')).toEqual([]);
  expect(lateCodes(paidOrder({ paid_at: '2026-11-20T10:05:00Z' }), '2026-12-16')).toHaveLength(1);
});
