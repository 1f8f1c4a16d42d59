import { TRPCClientError } from '@trpc/client';
import { expect, test } from 'vitest';
import { en } from '@/app/i18n/en';
import { pl } from '@/app/i18n/pl';
import { readError } from './error-text';

/** A failed call as the dashboard's forms receive it: the service's English message, its code and field. */
const failed = (code: string, param: string, message: string) =>
  TRPCClientError.from({ error: { message, code: -32600, data: { appError: { code, param } } } });

test('a code the dictionary translates is shown in the user’s language, beside its field', () => {
  const refusal = failed('url_not_public', 'url', 'The host localhost resolves to 127.0.0.1, which is not a public address: …');
  expect(readError(refusal, pl.errorCodes)).toEqual({ message: pl.errorCodes.url_not_public, param: 'url' });
  expect(readError(refusal, en.errorCodes)).toEqual({ message: en.errorCodes.url_not_public, param: 'url' });
  for (const dictionary of [pl, en]) expect(dictionary.errorCodes.url_not_public).toContain('ALLOW_PRIVATE_TARGETS=1');
});

test('other codes keep the service’s message', () => {
  const other = failed('store_keys_invalid', 'consumer_key', 'WooCommerce: Consumer key is invalid.');
  expect(readError(other, pl.errorCodes)).toEqual({ message: 'WooCommerce: Consumer key is invalid.', param: 'consumer_key' });
});
