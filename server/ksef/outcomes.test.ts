import { expect, test } from 'vitest';
import { KsefApiError, KsefUnavailableError } from './http';
import { authStatusOutcome, invoiceStatusOutcome, requestOutcome, sessionStatusOutcome } from './outcomes';

const status = (code: number, details: string[] = []) => ({ code, description: `d${code}`, details });
const refusal = (status: number, code: number) => new KsefApiError(status, code, `d${code}`, ['x'], {});

test('invoice statuses: processing, accepted with a number, 440 duplicate, 550 retried, any other code a rejection with KSeF text', () => {
  expect(invoiceStatusOutcome(status(100), null)).toEqual({ kind: 'processing' });
  expect(invoiceStatusOutcome(status(150), null)).toEqual({ kind: 'processing' });
  expect(invoiceStatusOutcome(status(200), 'K-1')).toEqual({ kind: 'accepted' });
  expect(invoiceStatusOutcome(status(200), null)).toEqual({ kind: 'processing' }); // no number yet: asked again
  expect(invoiceStatusOutcome(status(440), null)).toEqual({ kind: 'duplicate' });
  expect(invoiceStatusOutcome(status(550), null)).toEqual({ kind: 'retry', cause: 'cancelled', message: 'invoice status 550 d550' });
  expect(invoiceStatusOutcome(status(450, ['P_1 w przyszłości']), null)).toEqual({ kind: 'rejected', code: 450, message: 'd450: P_1 w przyszłości' });
  expect(invoiceStatusOutcome(status(430), null)).toMatchObject({ kind: 'rejected', code: 430 });
});

test('request failures: 429 throttled, KSeF down and 550 retried, 401 re-authenticates, a session that cannot take invoices is replaced, a refusal rejects', () => {
  expect(requestOutcome(new KsefUnavailableError('busy', 7, 429))).toEqual({ kind: 'throttled', retryAfterSeconds: 7 });
  expect(requestOutcome(new KsefUnavailableError('busy', undefined, 429))).toEqual({ kind: 'throttled', retryAfterSeconds: 1 });
  expect(requestOutcome(new KsefUnavailableError('502', 3, 502))).toEqual({ kind: 'retry', cause: 'unavailable', message: '502', retryAfterSeconds: 3 });
  expect(requestOutcome(refusal(400, 550))).toMatchObject({ kind: 'retry', cause: 'cancelled' });
  expect(requestOutcome(refusal(503, 1))).toMatchObject({ kind: 'retry', cause: 'unavailable' });
  expect(requestOutcome(refusal(401, 0))).toEqual({ kind: 'reauthenticate' });
  for (const code of [21155, 21173, 21180, 21184]) expect(requestOutcome(refusal(400, code))).toEqual({ kind: 'new_session' });
  expect(requestOutcome(refusal(400, 21405))).toEqual({ kind: 'rejected', code: 21405, message: 'd21405: x' });
  expect(requestOutcome(new Error('a bug'))).toBeUndefined();
});

test('authentication and batch session statuses', () => {
  expect(authStatusOutcome(550)).toBe('retry');
  for (const code of [415, 425, 450, 460, 470, 480]) expect(authStatusOutcome(code)).toBe('refused');
  expect([100, 150, 170].map(sessionStatusOutcome)).toEqual(['processing', 'processing', 'processing']);
  expect([200, 445].map(sessionStatusOutcome)).toEqual(['results', 'results']);
  expect([415, 440, 500].map(sessionStatusOutcome)).toEqual(['failed', 'failed', 'failed']);
});
