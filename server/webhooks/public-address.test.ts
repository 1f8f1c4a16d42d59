import { describe, expect, test } from 'vitest';
import { isPublicAddress } from './public-address';

describe('isPublicAddress', () => {
  test.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.10',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.251',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::FFFF:10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:c0a8:0101::1',
    'localhost',
    '',
  ])('%s is not public', (ip) => expect(isPublicAddress(ip)).toBe(false));

  test.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2a00:1450:4001:82b::200e', '::ffff:8.8.8.8', '2002:0808:0808::1'])(
    '%s is public',
    (ip) => expect(isPublicAddress(ip)).toBe(true),
  );
});
