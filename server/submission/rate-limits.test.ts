import { expect, test } from 'vitest';
import { chooseSendMode } from './send-mode';
import { ksefEndpointGroup } from './rate-limits';

const REF = '20250625-SO-2C3E6C8000-B675CF5D68-07';
const INV = '20250625-EE-2C3E6C8000-B675CF5D68-07';

test.each([
  ['POST', '/auth/challenge', 'public'],
  ['GET', `/auth/${REF}`, 'public'],
  ['POST', '/auth/token/redeem', 'public'],
  ['GET', '/security/public-key-certificates', 'public'],
  ['POST', '/sessions/online', 'onlineSession'],
  ['POST', `/sessions/online/${REF}/close`, 'onlineSession'],
  ['POST', `/sessions/online/${REF}/invoices`, 'invoiceSend'],
  ['POST', '/sessions/batch', 'batchSession'],
  ['POST', `/sessions/batch/${REF}/close`, 'batchSession'],
  ['GET', `/sessions/${REF}/invoices/${INV}`, 'invoiceStatus'],
  ['GET', '/sessions', 'sessionList'],
  ['GET', `/sessions/${REF}/invoices`, 'sessionInvoiceList'],
  ['GET', `/sessions/${REF}/invoices/failed`, 'sessionInvoiceList'],
  ['GET', `/sessions/${REF}`, 'sessionMisc'],
  ['GET', `/sessions/${REF}/invoices/${INV}/upo`, 'sessionMisc'],
  ['GET', `/sessions/${REF}/invoices/ksef/5265877635-20250826-0100001AF629-AF/upo`, 'sessionMisc'],
  ['GET', `/sessions/${REF}/upo/${REF}`, 'sessionMisc'],
  ['GET', '/invoices/ksef/5265877635-20250826-0100001AF629-AF', 'invoiceDownload'],
  ['POST', '/invoices/query/metadata', 'invoiceMetadata'],
  ['GET', `/invoices/exports/${REF}`, 'invoiceExportStatus'],
  ['POST', '/tokens', 'other'],
] as const)('%s %s counts in %s (README §11)', (method, path, group) => {
  expect(ksefEndpointGroup(method, path).group).toBe(group);
});

test('"other" endpoints count each on its own, whatever the reference in the path', () => {
  expect(ksefEndpointGroup('GET', `/tokens/${REF}`).counter).toBe(ksefEndpointGroup('GET', '/tokens/20260101-EC-0000000000-0000000000-00').counter);
  expect(ksefEndpointGroup('POST', '/tokens').counter).not.toBe(ksefEndpointGroup('GET', '/rate-limits').counter);
});

const prod = { perSecond: 10, perMinute: 30, perHour: 180 };
const used = (minute: number, hour: number) => ({ second: 0, minute, hour });

test.each([
  { depth: 1, minute: 0, hour: 0, mode: 'interactive' },
  { depth: 10, minute: 0, hour: 0, mode: 'interactive' },
  { depth: 11, minute: 0, hour: 0, mode: 'batch' }, // the queue is deeper than the threshold
  { depth: 1, minute: 28, hour: 28, mode: 'batch' }, // the minute window is nearly used
  { depth: 1, minute: 27, hour: 27, mode: 'interactive' },
  { depth: 1, minute: 0, hour: 178, mode: 'batch' }, // the hour window is nearly used
  { depth: 5, minute: 24, hour: 24, mode: 'batch' }, // five cannot go in the six left with a reserve of two
] as const)('queue $depth, invoiceSend used $minute/min $hour/h → $mode', ({ depth, minute, hour, mode }) => {
  expect(chooseSendMode(depth, { limits: prod, used: used(minute, hour) }, 10)).toBe(mode);
});
