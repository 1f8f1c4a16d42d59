import { readFileSync } from 'node:fs';
import { constants, generateKeyPairSync, sign, verify } from 'node:crypto';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { config } from '@/server/config';
import { kodIIUrl, kodIUrl, parseKodIIUrl, verifyKodIISignature } from './qr';

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

describe('kodIIUrl', () => {
  const xml = readFileSync(samplePath);
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const base = {
    environment: 'test',
    contextType: 'Nip',
    contextValue: '5265877635',
    sellerNip: '5265877635',
    certificateSerial: '01F20A5D352AE590',
    xml,
  } as const;
  const prefix = 'https://qr-test.ksef.mf.gov.pl/certificate/Nip/5265877635/5265877635/01F20A5D352AE590/XJkXxkgABi0VXViiUD_prFKNvs5OevopF48KLo4EhfM/';

  test("RSA: the brief's layout, a 256-byte RSA-PSS signature (salt 32) over the link without https://", () => {
    const url = kodIIUrl({ ...base, privateKey: rsa.privateKey });
    expect(url.startsWith(prefix)).toBe(true);
    const signature = Buffer.from(url.slice(prefix.length), 'base64url');
    expect(url.slice(prefix.length)).toMatch(/^[A-Za-z0-9_-]{342}$/);
    const signed = Buffer.from(prefix.slice('https://'.length, -1), 'utf8');
    expect(verify('sha256', signed, { key: rsa.publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, signature)).toBe(true);
    expect(verifyKodIISignature(parseKodIIUrl(url)!, rsa.publicKey)).toBe(true);
  });

  test('EC P-256: a 64-byte IEEE P1363 signature, 86 Base64URL characters', () => {
    const url = kodIIUrl({ ...base, privateKey: ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() });
    expect(url.slice(prefix.length)).toMatch(/^[A-Za-z0-9_-]{86}$/);
    const signed = Buffer.from(prefix.slice('https://'.length, -1), 'utf8');
    expect(verify('sha256', signed, { key: ec.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(url.slice(prefix.length), 'base64url'))).toBe(true);
    expect(verifyKodIISignature(parseKodIIUrl(url)!, ec.publicKey)).toBe(true);
  });

  test("the docs' example link is split into what was signed", () => {
    const parts = parseKodIIUrl(
      'https://qr-test.ksef.mf.gov.pl/certificate/Nip/1111111111/1111111111/01F20A5D352AE590/UtQp9Gpc51y-u3xApZjIjgkpZ01js-J8KflSPW8WzIE/AAAA',
    );
    expect(parts?.signed.toString('utf8')).toBe(
      'qr-test.ksef.mf.gov.pl/certificate/Nip/1111111111/1111111111/01F20A5D352AE590/UtQp9Gpc51y-u3xApZjIjgkpZ01js-J8KflSPW8WzIE',
    );
  });

  test('a changed segment or another key fails verification; DER ECDSA is accepted', () => {
    const url = kodIIUrl({ ...base, privateKey: ec.privateKey });
    const tampered = parseKodIIUrl(url.replace('/5265877635/01F2', '/5260250274/01F2'))!;
    expect(verifyKodIISignature(tampered, ec.publicKey)).toBe(false);
    expect(verifyKodIISignature(parseKodIIUrl(url)!, generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey)).toBe(false);
    const parts = parseKodIIUrl(url)!;
    const der = sign('sha256', parts.signed, { key: ec.privateKey, dsaEncoding: 'der' });
    expect(verifyKodIISignature({ signed: parts.signed, signature: der }, ec.publicKey)).toBe(true);
  });

  test('refuses keys KOD II does not allow and malformed serials', () => {
    expect(() => kodIIUrl({ ...base, privateKey: generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey })).toThrow(/2048/);
    expect(() => kodIIUrl({ ...base, privateKey: generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey })).toThrow(/P-256/);
    expect(() => kodIIUrl({ ...base, certificateSerial: '01f20a5d352ae590', privateKey: ec.privateKey })).toThrow(/serial/);
  });
});
