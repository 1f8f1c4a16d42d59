import { expect, test } from 'vitest';
import { chooseSendMode } from '@/server/submission/send-mode';
import { ksefEndpointGroup } from './rate-limits';

const REF = '20250625-SO-2C3E6C8000-B675CF5D68-07';
const INV = '20250625-EE-2C3E6C8000-B675CF5D68-07';

test.each([
  ['POST', '/auth/challenge', 'public'],
  ['GET', `/auth/${REF}`, 'public'],
  ['POST', '/auth/token/redeem', 'public'],
  ['GET', '/security/public-key-certificates', 'public'],
  ['POST', '/sessions/online', 'onlineSession'],
  ['POST', `/sessions/online/${REF}/close`, 'onlineSessionClose'],
  ['POST', `/sessions/online/${REF}/invoices`, 'invoiceSend'],
  ['POST', '/sessions/batch', 'batchSession'],
  ['POST', `/sessions/batch/${REF}/close`, 'batchSessionClose'],
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

const batchProd = { perSecond: 10, perMinute: 20, perHour: 60 };

test.each([
  { depth: 1, minute: 0, hour: 0, batchHour: 0, mode: 'interactive' },
  { depth: 10, minute: 0, hour: 0, batchHour: 0, mode: 'interactive' },
  { depth: 11, minute: 0, hour: 0, batchHour: 0, mode: 'batch' }, // the queue is deeper than the threshold
  { depth: 11, minute: 0, hour: 0, batchHour: 60, mode: 'interactive' }, // … but the batch budget cannot open a session (its close counts in batchSessionClose)
  { depth: 11, minute: 0, hour: 0, batchHour: 59, mode: 'batch' }, // one open left is a batch
  { depth: 1, minute: 30, hour: 30, batchHour: 0, mode: 'interactive' }, // the minute window frees within a minute: no one-document batch
  { depth: 5, minute: 24, hour: 24, batchHour: 0, mode: 'interactive' },
  { depth: 1, minute: 0, hour: 178, batchHour: 0, mode: 'batch' }, // the interactive hour is nearly used
  { depth: 1, minute: 0, hour: 180, batchHour: 60, mode: 'interactive' }, // both spent: waits for the interactive window
] as const)('queue $depth, invoiceSend used $minute/min $hour/h, batchSession $batchHour/h → $mode', ({ depth, minute, hour, batchHour, mode }) => {
  expect(chooseSendMode(depth, { limits: prod, used: used(minute, hour) }, { limits: batchProd, used: used(0, batchHour) }, 10)).toBe(mode);
});
