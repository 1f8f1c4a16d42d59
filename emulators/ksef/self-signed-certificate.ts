import 'reflect-metadata'; // @peculiar/x509 resolves its services through tsyringe, which needs the polyfill
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

export type KeyAlgorithm = 'rsa' | 'ec';
export type SelfSigned = { certificatePem: string; privateKeyPem: string; certificateDer: Buffer };

const ALGORITHMS = {
  rsa: { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
  ec: { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' },
} as const;

/** Subject attributes by OID; @peculiar/x509 encodes them in this order. */
export type SubjectAttributes = { oid: string; value: string }[];

const pem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der)
    .toString('base64')
    .replace(/.{1,64}/g, '$&\n')}-----END ${label}-----\n`;

/** A self-signed certificate and its PKCS#8 key, valid from an hour ago for `validDays`. */
export async function createSelfSignedCertificate(subject: SubjectAttributes, algorithm: KeyAlgorithm = 'rsa', validDays = 365): Promise<SelfSigned> {
  const alg = ALGORITHMS[algorithm];
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8)))
        .toString('hex')
        .replace(/^[89a-f]/, '1'),
      name: new x509.Name(subject.map(({ oid, value }) => ({ [oid]: [value] }))),
      notBefore: new Date(now - 3_600_000),
      notAfter: new Date(now + validDays * 86_400_000),
      keys,
      signingAlgorithm: alg,
      extensions: [new x509.BasicConstraintsExtension(false, undefined, true)],
    },
    webcrypto as unknown as Crypto,
  );
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { certificatePem: cert.toString('pem'), privateKeyPem: pem('PRIVATE KEY', pkcs8), certificateDer: Buffer.from(cert.rawData) };
}

const OID = {
  commonName: '2.5.4.3',
  surname: '2.5.4.4',
  serialNumber: '2.5.4.5',
  country: '2.5.4.6',
  organization: '2.5.4.10',
  givenName: '2.5.4.42',
  organizationIdentifier: '2.5.4.97',
};

/**
 * A certificate the KSeF test environment accepts as Owner of `nip` (README §5.3): a company seal
 * (O, 2.5.4.97=VATPL-NIP, CN, C=PL) by default, or a person (GN, SN, serialNumber=TINPL-NIP, CN, C=PL).
 */
export function createTestCertificate(opts: { nip: string; kind?: 'seal' | 'person'; algorithm?: KeyAlgorithm; name?: string }): Promise<SelfSigned> {
  const name = opts.name ?? `Test ${opts.nip}`;
  const subject: SubjectAttributes =
    opts.kind === 'person'
      ? [
          { oid: OID.givenName, value: 'Jan' },
          { oid: OID.surname, value: 'Testowy' },
          { oid: OID.serialNumber, value: `TINPL-${opts.nip}` },
          { oid: OID.commonName, value: name },
          { oid: OID.country, value: 'PL' },
        ]
      : [
          { oid: OID.organization, value: name },
          { oid: OID.organizationIdentifier, value: `VATPL-${opts.nip}` },
          { oid: OID.commonName, value: name },
          { oid: OID.country, value: 'PL' },
        ];
  return createSelfSignedCertificate(subject, opts.algorithm ?? 'rsa');
}
