import forge from 'node-forge';
import { describe, expect, test } from 'vitest';
import { createTestCertificate } from '@/emulators/ksef/self-signed-certificate';
import { readCertificate } from './read-certificate';

const p12Of = (certificatePem: string, privateKeyPem: string, password: string) =>
  forge.util.encode64(
    forge.asn1
      .toDer(
        forge.pkcs12.toPkcs12Asn1(forge.pki.privateKeyFromPem(privateKeyPem), [forge.pki.certificateFromPem(certificatePem)], password, { algorithm: '3des' }),
      )
      .getBytes(),
  );
const param = (f: () => unknown) => {
  try {
    f();
    return 'accepted';
  } catch (err) {
    return (err as { param?: string }).param;
  }
};

describe('readCertificate', () => {
  test('a .p12 with its password gives the same certificate and a key that belongs to it', async () => {
    const cert = await createTestCertificate({ nip: '5260250274' });
    const out = readCertificate({ format: 'p12', p12Base64: p12Of(cert.certificatePem, cert.privateKeyPem, 'tajne'), password: 'tajne' });
    expect(forge.pki.certificateFromPem(out.certificatePem).serialNumber).toBe(forge.pki.certificateFromPem(cert.certificatePem).serialNumber);
    expect(out.privateKeyPem).toContain('BEGIN PRIVATE KEY');
  });

  test('errors name the field to fix', async () => {
    const cert = await createTestCertificate({ nip: '5260250274' });
    const other = await createTestCertificate({ nip: '5260250274' });
    expect(param(() => readCertificate({ format: 'p12', p12Base64: p12Of(cert.certificatePem, cert.privateKeyPem, 'tajne'), password: 'zle' }))).toBe(
      'password',
    );
    expect(param(() => readCertificate({ format: 'pem', certificatePem: cert.certificatePem, privateKeyPem: other.privateKeyPem }))).toBe('private_key');
    expect(param(() => readCertificate({ format: 'pem', certificatePem: 'not a certificate', privateKeyPem: cert.privateKeyPem }))).toBe('certificate');
    expect(param(() => readCertificate({ format: 'pem', certificatePem: cert.certificatePem, privateKeyPem: cert.privateKeyPem }))).toBe('accepted');
  });
});
