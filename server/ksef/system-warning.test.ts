import { expect, test } from 'vitest';
import { parseSystemWarnings, warningSubject } from './system-warning';

const SO = '20261127-SO-2C3E6C8000-B675CF5D68-07';
const EE = '20261127-EE-2C3E6C8000-B675CF5D68-07';

test('`[code]: message | [code]: message` gives one warning each; other text is kept whole, without a code', () => {
  expect(parseSystemWarnings('[xml-001]: Faktura zawiera niedozwolone znaki | [x-2]: Drugie')).toEqual([
    { code: 'xml-001', message: 'Faktura zawiera niedozwolone znaki' },
    { code: 'x-2', message: 'Drugie' },
  ]);
  expect(parseSystemWarnings('Test-forced-system-warning')).toEqual([{ code: null, message: 'Test-forced-system-warning' }]);
  expect(parseSystemWarnings(' | ')).toEqual([]);
});

test.each([
  ['POST', `/sessions/online/${SO}/invoices`, `{"referenceNumber":"${EE}"}`, { sessionRef: SO, invoiceRef: EE, ksefNumber: null }],
  ['POST', `/sessions/online/${SO}/invoices`, 'not json', { sessionRef: SO, invoiceRef: null, ksefNumber: null }],
  ['GET', `/sessions/${SO}/invoices/${EE}`, '{}', { sessionRef: SO, invoiceRef: EE, ksefNumber: null }],
  ['POST', `/sessions/batch/${SO}/close`, '', { sessionRef: SO, invoiceRef: null, ksefNumber: null }],
  [
    'GET',
    `/sessions/${SO}/invoices/ksef/5265877635-20261127-0100001AF629-AF/upo`,
    '',
    { sessionRef: SO, invoiceRef: null, ksefNumber: '5265877635-20261127-0100001AF629-AF' },
  ],
  ['POST', '/auth/challenge', '{}', { sessionRef: null, invoiceRef: null, ksefNumber: null }],
] as const)('%s %s concerns %o', (method, path, body, subject) => {
  expect(warningSubject(method, path, body)).toEqual(subject);
});
