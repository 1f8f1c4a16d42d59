import { describe, expect, test } from 'vitest';
import { checkEndpointUrl } from './endpoint-url';
import { isPublicAddress } from './public-address';

/**
 * Address forms a tenant could use to make the service reach its own network (issue 18.7). Every one must be
 * judged non-public, both as an address and as the host of a webhook URL.
 */
const PRIVATE_FORMS = [
  // IPv4 in its ranges
  '127.0.0.1',
  '127.1.2.3',
  '10.0.0.1',
  '172.16.5.4',
  '192.168.0.1',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '0.1.2.3',
  '198.18.0.1',
  '192.0.0.8',
  '224.0.0.1',
  '240.0.0.1',
  '255.255.255.255',
  // IPv6 loopback, unspecified, local
  '::1',
  '::',
  '0:0:0:0:0:0:0:1',
  '0000:0000:0000:0000:0000:0000:0000:0001',
  'fe80::1',
  'fe80::1%eth0',
  'fd00::1',
  'fc00::abcd',
  'fec0::1',
  'ff02::1',
  // IPv4-compatible (deprecated) forms
  '::7f00:1',
  '::127.0.0.1',
  '::a9fe:a9fe',
  '::169.254.169.254',
  '::a00:1',
  '::8.8.8.8',
  // IPv4-mapped
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::FFFF:7F00:0001',
  '0:0:0:0:0:ffff:127.0.0.1',
  '0:0:0:0:0:ffff:7f00:1',
  '::ffff:a9fe:a9fe',
  '::ffff:10.0.0.1',
  '::ffff:c0a8:101',
  // IPv4-translated
  '::ffff:0:7f00:1',
  '::ffff:0:127.0.0.1',
  '::ffff:0:a9fe:a9fe',
  '::ffff:0:10.1.1.1',
  // NAT64 and 6to4
  '64:ff9b::7f00:1',
  '64:ff9b::127.0.0.1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b:1::a00:1',
  '2002:7f00:1::',
  '2002:a9fe:a9fe::1',
  '2002:c0a8:101::1',
  // Teredo, documentation, discard
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  '2001:db8::1',
  '100::1',
];

const PUBLIC_FORMS = [
  '8.8.8.8',
  '93.184.216.34',
  '2a00:1450:4001:82b::200e',
  '::ffff:8.8.8.8',
  '::ffff:808:808',
  '64:ff9b::808:808',
  '2002:808:808::1',
  '2606:4700:4700::1111',
];

describe('SSRF address forms', () => {
  test.each(PRIVATE_FORMS)('%s is not public', (ip) => expect(isPublicAddress(ip)).toBe(false));
  test.each(PUBLIC_FORMS)('%s is public', (ip) => expect(isPublicAddress(ip)).toBe(true));

  const urls = [
    ...PRIVATE_FORMS.filter((ip) => !ip.includes('%')).map((ip) => (ip.includes(':') ? `https://[${ip}]/hook` : `https://${ip}/hook`)),
    'https://[::ffff:127.0.0.1]:8443/x',
    'https://2130706433/x', // 127.0.0.1 as one number
    'https://0x7f.0.0.1/x',
    'https://0177.0.0.1/x',
    'https://127.1/x',
    'https://0/x',
  ];
  test.each(urls)('%s is refused in live mode and in test mode without the operator switch', async (url) => {
    for (const mode of ['live', 'test'] as const) {
      await expect(checkEndpointUrl(url, mode, async () => [], { allowPrivate: false })).rejects.toMatchObject({ code: 'url_not_public', param: 'url' });
    }
  });

  test('a host name resolving to a private address is refused; the operator switch lets test mode use it', async () => {
    const resolve = async () => ['10.0.0.7'];
    await expect(checkEndpointUrl('http://hooks.internal/x', 'test', resolve, { allowPrivate: false })).rejects.toMatchObject({
      code: 'url_not_public',
      param: 'url',
    });
    await expect(checkEndpointUrl('http://hooks.internal/x', 'test', resolve, { allowPrivate: true })).resolves.toBeInstanceOf(URL);
    await expect(checkEndpointUrl('https://hooks.internal/x', 'live', resolve, { allowPrivate: true })).rejects.toMatchObject({
      code: 'url_not_public',
      param: 'url',
    });
  });
});
