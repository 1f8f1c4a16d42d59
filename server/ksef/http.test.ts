import { expect, test } from 'vitest';
import { createKsefHttp, KsefUnavailableError } from './http';

const send = (fetchImpl: typeof fetch) => createKsefHttp({ baseUrl: 'http://ksef.invalid/v2', fetch: fetchImpl }).send({ method: 'GET', path: '/x' });

test('the database failing inside the fetch (the throttle reads PostgreSQL) is passed on, not taken for KSeF being down', async () => {
  const dbError = new Error('Failed query: select …', { cause: Object.assign(new Error('write CONNECT_TIMEOUT'), { code: 'CONNECT_TIMEOUT' }) });
  await expect(send(() => Promise.reject(dbError))).rejects.toBe(dbError);
});

test('a network error is KSeF unreachable', async () => {
  const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
  await expect(send(() => Promise.reject(refused))).rejects.toBeInstanceOf(KsefUnavailableError);
});
