import { expect, test } from 'vitest';
import { en } from '@/app/i18n/en';
import { pl } from '@/app/i18n/pl';
import { deliveryFailure, deliveryFailureKind } from '@/server/webhooks/delivery-failures';
import { deliveryErrorText } from './error-text';

test.each([
  [deliveryFailure.invalidUrl(), 'refused'],
  [deliveryFailure.liveHttps(), 'refused'],
  [deliveryFailure.notPublic('10.0.0.1'), 'refused'],
  [deliveryFailure.resolvesPrivate('hooks.example', '10.0.0.1'), 'refused'],
  [deliveryFailure.timedOut(10_000, false), 'timed_out'],
  [deliveryFailure.timedOut(10_000, true), 'timed_out'],
  [deliveryFailure.redirect('https://elsewhere.example/'), 'redirect'],
  [deliveryFailure.redirect(undefined), 'redirect'],
  [deliveryFailure.answered(503), 'answered'],
  [deliveryFailure.network('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'), 'unreachable'],
  [deliveryFailure.network(undefined, 'socket hang up'), 'unreachable'],
] as const)('%s is a failure of kind %s', (text, kind) => expect(deliveryFailureKind(text)).toBe(kind));

test('the Polish log says the kind in Polish and keeps the technical text; an error status is the status column', () => {
  expect(deliveryErrorText(deliveryFailure.timedOut(10_000, false), pl)).toBe('Brak odpowiedzi w wyznaczonym czasie: timed out after 10000 ms');
  expect(deliveryErrorText(deliveryFailure.answered(503), pl)).toBe('Endpoint odpowiedział kodem błędu');
  expect(deliveryErrorText(deliveryFailure.notPublic('10.0.0.1'), en)).toBe(
    'Not sent: the endpoint address is not allowed: refused: 10.0.0.1 is not a public address',
  );
});
