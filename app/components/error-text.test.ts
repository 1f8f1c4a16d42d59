import { TRPCClientError } from '@trpc/client';
import { expect, test } from 'vitest';
import { en } from '@/app/i18n/en';
import { pl } from '@/app/i18n/pl';
import { readError, storedErrorText } from './error-text';

/** A failed call as the dashboard's forms receive it: the service's English message, its code, field and values. */
const failed = (message: string, data: Record<string, unknown>) => TRPCClientError.from({ error: { message, code: -32600, data } });

const notPublic = failed('The host localhost resolves to 127.0.0.1, which is not a public address: test mode …', {
  code: 'BAD_REQUEST',
  appError: { code: 'url_not_public', param: 'url', detail: 'url_not_public_test', params: { host: 'localhost', address: '127.0.0.1' } },
});

test('a finer cause is shown in the reader’s language with its values, beside its field', () => {
  const polish = readError(notPublic, pl);
  expect(polish).toEqual({ message: expect.stringContaining('Host localhost wskazuje na 127.0.0.1') as string, param: 'url' });
  expect(polish?.message).toContain('ALLOW_PRIVATE_TARGETS=1');
  expect(readError(notPublic, en)?.message).toContain('The host localhost resolves to 127.0.0.1');
});

test('a code without a finer cause is translated for a Polish reader; an English reader sees the service’s message', () => {
  const keys = failed('WooCommerce: Consumer key is invalid. (woocommerce_rest_authentication_error)', {
    code: 'BAD_REQUEST',
    appError: { code: 'store_keys_invalid', param: 'consumer_key', detail: null, params: null },
  });
  expect(readError(keys, pl)).toEqual({ message: pl.errorCodes.store_keys_invalid, param: 'consumer_key' });
  expect(readError(keys, en)).toEqual({ message: 'WooCommerce: Consumer key is invalid. (woocommerce_rest_authentication_error)', param: 'consumer_key' });
});

test('tRPC’s own codes are translated in both languages; an unknown failure never shows English to a Polish reader', () => {
  const session = failed('UNAUTHORIZED', { code: 'UNAUTHORIZED' });
  expect(readError(session, pl)?.message).toBe(pl.errorCodes.UNAUTHORIZED);
  expect(readError(session, en)?.message).toBe(en.errorCodes.UNAUTHORIZED);
  const network = new TypeError('Failed to fetch');
  expect(readError(network, pl)).toEqual({ message: pl.unknownError, param: null });
  expect(readError(network, en)).toEqual({ message: 'Failed to fetch', param: null });
  expect(readError(failed('Something odd', { code: 'SOMETHING_NEW' }), pl)?.message).toBe(pl.unknownError);
});

test('a document’s stored error: its meaning in Polish; in English the meaning and the stored detail', () => {
  const stored = { code: 'seller_not_configured', message: 'The seller NIP is missing.' };
  expect(storedErrorText(stored, pl)).toBe(pl.errorCodes.seller_not_configured);
  expect(storedErrorText(stored, en)).toBe(`${en.errorCodes.seller_not_configured} The seller NIP is missing.`);
  expect(storedErrorText({ code: '21405', message: 'Błąd walidacji' }, pl)).toBe('Błąd walidacji');
});
