import type { PublicKeyCertificate, PublicKeyUsage } from './crypto';
import { selectPublicKeyCertificate } from './crypto';
import { createKsefHttp, type KsefHttp, type KsefHttpOptions } from './http';

export type KsefClient = {
  http: KsefHttp;
  /** The certificate to encrypt with for a usage; the list is cached until `refresh` (after code 21470, README §4). */
  publicKey(usage: PublicKeyUsage, refresh?: boolean): Promise<PublicKeyCertificate>;
};

/** `fetch` is replaceable so contract tests can check every answer against the OpenAPI. */
export function createKsefClient(opts: KsefHttpOptions): KsefClient {
  const http = createKsefHttp(opts);
  let keys: Promise<PublicKeyCertificate[]> | undefined;
  return {
    http,
    async publicKey(usage, refresh = false) {
      if (refresh || !keys) {
        keys = http.json<PublicKeyCertificate[]>({ method: 'GET', path: '/security/public-key-certificates' });
        keys.catch(() => (keys = undefined));
      }
      return selectPublicKeyCertificate(await keys, usage);
    },
  };
}
