import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { config } from '../config';
import { kodIUrl } from './qr';

// The brief (§10) gives the expected link for its sample invoice; the sample sits beside the schemas.
const samplePath = path.resolve(config().KSEF_SCHEMAS_DIR, '../samples/fa3-sample.xml');

describe('kodIUrl', () => {
  test('matches the brief for samples/fa3-sample.xml', () => {
    const xml = readFileSync(samplePath);
    expect(xml.length).toBe(4643);
    expect(kodIUrl({ environment: 'test', sellerNip: '5265877635', issueDate: '2026-02-01', xml })).toBe(
      'https://qr-test.ksef.mf.gov.pl/invoice/5265877635/01-02-2026/XJkXxkgABi0VXViiUD_prFKNvs5OevopF48KLo4EhfM',
    );
  });

  test('hashes a string as its UTF-8 bytes', () => {
    const xml = '<Faktura><P_7>Dzbanek żółty</P_7></Faktura>';
    const input = { environment: 'test', sellerNip: '5265877635', issueDate: '2026-02-01' } as const;
    expect(kodIUrl({ ...input, xml })).toBe(kodIUrl({ ...input, xml: Buffer.from(xml, 'utf8') }));
    expect(kodIUrl({ ...input, xml })).not.toBe(kodIUrl({ ...input, xml: Buffer.from(xml, 'latin1') }));
  });

  test.each([
    { environment: 'test', host: 'https://qr-test.ksef.mf.gov.pl' },
    { environment: 'demo', host: 'https://qr-demo.ksef.mf.gov.pl' },
    { environment: 'prod', host: 'https://qr.ksef.mf.gov.pl' },
  ] as const)('$environment uses $host', ({ environment, host }) => {
    const url = kodIUrl({ environment, sellerNip: '1111111111', issueDate: '2026-12-31', xml: 'x' });
    expect(url.startsWith(`${host}/invoice/1111111111/31-12-2026/`)).toBe(true);
    expect(url.split('/').at(-1)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test.each(['2026-2-1', '01-02-2026', '2026-02-01T00:00:00Z'])('rejects issue date %s', (issueDate) => {
    expect(() => kodIUrl({ environment: 'test', sellerNip: '5265877635', issueDate, xml: 'x' })).toThrow(/YYYY-MM-DD/);
  });

  test.each(['PL5265877635', '526-587-76-35', '526587763'])('rejects seller NIP %s', (sellerNip) => {
    expect(() => kodIUrl({ environment: 'test', sellerNip, issueDate: '2026-02-01', xml: 'x' })).toThrow(/NIP/);
  });
});
