import { describe, expect, test } from 'vitest';
import { checkEndpointUrl, type ResolveHost } from './endpoint-url';

const answers =
  (table: Record<string, string[] | Error>): ResolveHost =>
  async (host) => {
    const a = table[host];
    if (a === undefined || a instanceof Error) throw a ?? Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return a;
  };

describe('live-mode webhook URL at creation', () => {
  test('a host that does not resolve (yet) is accepted: every delivery resolves again', async () => {
    const url = await checkEndpointUrl('https://hooks.shop-not-live-yet.example/ksef', 'live', answers({}));
    expect(url.hostname).toBe('hooks.shop-not-live-yet.example');
  });

  test('a host with no addresses at all is accepted too', async () => {
    await expect(checkEndpointUrl('https://empty.example/h', 'live', answers({ 'empty.example': [] }))).resolves.toBeInstanceOf(URL);
  });

  test.each([
    ['loopback', '127.0.0.1'],
    ['private', '10.0.0.7'],
    ['link-local', '169.254.169.254'],
    ['IPv6 loopback', '::1'],
  ])('a host resolving to a %s address stays refused', async (_kind, address) => {
    await expect(checkEndpointUrl('https://internal.example/h', 'live', answers({ 'internal.example': ['93.184.216.34', address] }))).rejects.toMatchObject({
      code: 'url_not_public',
      param: 'url',
    });
  });

  test.each(['https://127.0.0.1/h', 'https://10.1.2.3/h', 'https://169.254.169.254/latest', 'https://[::1]/h'])(
    'the literal %s stays refused without asking DNS',
    async (raw) => {
      const never: ResolveHost = () => Promise.reject(new Error('DNS must not be asked for a literal address'));
      await expect(checkEndpointUrl(raw, 'live', never)).rejects.toMatchObject({ code: 'url_not_public', param: 'url' });
    },
  );
});
