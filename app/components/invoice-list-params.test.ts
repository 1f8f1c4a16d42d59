import { expect, test } from 'vitest';
import { invoiceListParams, readInvoiceListParams } from './invoice-list-params';

test('the address gives back the list it was made from, without its defaults', () => {
  const state = readInvoiceListParams({
    status: 'error',
    kind: 'correction',
    query: 'Kowalski',
    from: '2026-11-01',
    to: '2026-11-30',
    sort: 'number',
    dir: 'asc',
    page: '3',
  });
  expect(state).toEqual({ status: 'error', kind: 'correction', query: 'Kowalski', from: '2026-11-01', to: '2026-11-30', sort: 'number', dir: 'asc', page: 3 });
  expect(readInvoiceListParams(Object.fromEntries(invoiceListParams(state)))).toEqual(state);
  expect(invoiceListParams(readInvoiceListParams({})).toString()).toBe('');
  expect(invoiceListParams(state, { withPage: false }).has('page')).toBe(false);
});

test('a value that does not parse is dropped, not an error', () => {
  expect(
    readInvoiceListParams({ status: 'lost', kind: ['invoice', 'correction'], from: '1.11.2026', sort: 'price', dir: 'up', page: '-1', query: '   ' }),
  ).toEqual({
    status: undefined,
    kind: undefined,
    query: undefined,
    from: undefined,
    to: undefined,
    sort: 'created',
    dir: 'desc',
    page: 1,
  });
});
