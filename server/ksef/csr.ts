import 'reflect-metadata'; // @peculiar/x509 resolves its services through tsyringe, which needs the polyfill
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { EnrollmentData } from './certificates';

/** DN attribute OIDs of CertificateEnrollmentDataResponse (certyfikaty-KSeF.md), in the order of the OAS example CSR. */
const SUBJECT_ORDER: [keyof EnrollmentData, string][] = [
  ['commonName', '2.5.4.3'],
  ['givenName', '2.5.4.42'],
  ['surname', '2.5.4.4'],
  ['organizationName', '2.5.4.10'],
  ['organizationIdentifier', '2.5.4.97'],
  ['countryName', '2.5.4.6'],
  ['serialNumber', '2.5.4.5'],
  ['uniqueIdentifier', '2.5.4.45'],
];

const pem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der)
    .toString('base64')
    .replace(/.{1,64}/g, '$&\n')}-----END ${label}-----\n`;

/** The two key types KSeF certifies: RSA of exactly 2048 bits, or EC P-256. */
const KEY_ALGORITHMS = {
  ec: { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' },
  rsa: { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
} as const;

/**
 * A fresh key pair (EC P-256 by default: recommended by KSeF, and it gives the short KOD II signature) and a PKCS#10
 * request for exactly the subject KSeF returned, DER in Base64 as POST /certificates/enrollments wants. The private
 * key (PKCS#8 PEM) never leaves the service.
 */
export async function createCsr(data: EnrollmentData, keyType: keyof typeof KEY_ALGORITHMS = 'ec'): Promise<{ csr: string; privateKeyPem: string }> {
  const algorithm = KEY_ALGORITHMS[keyType];
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const subject = SUBJECT_ORDER.flatMap(([field, oid]) => {
    const value = data[field];
    return value ? [{ [oid]: [value] }] : [];
  });
  const request = await x509.Pkcs10CertificateRequestGenerator.create(
    { name: new x509.Name(subject), keys, signingAlgorithm: algorithm },
    webcrypto as unknown as Crypto,
  );
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { csr: Buffer.from(request.rawData).toString('base64'), privateKeyPem: pem('PRIVATE KEY', pkcs8) };
}

/** A retrieved KSeF certificate (DER, Base64) as PEM. */
export const certificatePemOf = (derBase64: string): string => new x509.X509Certificate(new Uint8Array(Buffer.from(derBase64, 'base64'))).toString('pem');
