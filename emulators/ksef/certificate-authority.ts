import 'reflect-metadata'; // @peculiar/x509 resolves its services through tsyringe, which needs the polyfill
import { createPublicKey, randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { KsefFailure } from './kit';
import type { CertificateSubject, KsefCertificateType } from './state';

/** Short names @peculiar/x509 prints for the OIDs KSeF puts in a certificate subject. */
const SHORT_NAMES: Record<string, string> = { CN: '2.5.4.3', SN: '2.5.4.4', C: '2.5.4.6', O: '2.5.4.10', G: '2.5.4.42', serialNumber: '2.5.4.5' };

/** CertificateEnrollmentDataResponse field ↔ OID (certyfikaty-KSeF.md table). */
export const ENROLLMENT_FIELDS = {
  commonName: '2.5.4.3',
  surname: '2.5.4.4',
  serialNumber: '2.5.4.5',
  countryName: '2.5.4.6',
  organizationName: '2.5.4.10',
  givenName: '2.5.4.42',
  uniqueIdentifier: '2.5.4.45',
  organizationIdentifier: '2.5.4.97',
} as const;

const attributesOf = (name: x509.Name) =>
  name.toJSON().flatMap((rdn) => Object.entries(rdn).flatMap(([key, values]) => values.map((value) => ({ oid: SHORT_NAMES[key] ?? key, value }))));

/** The subject of a XAdES login certificate, kept with the authentication (only these may enrol, README §4.1). */
export function certificateSubject(der: Buffer, nip: string): CertificateSubject {
  const attributes = attributesOf(new x509.X509Certificate(new Uint8Array(der)).subjectName).filter((a) =>
    Object.values(ENROLLMENT_FIELDS).includes(a.oid as never),
  );
  return { nip, attributes };
}

export function enrollmentData(subject: CertificateSubject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, oid] of Object.entries(ENROLLMENT_FIELDS)) {
    const value = subject.attributes.find((a) => a.oid === oid)?.value;
    if (value !== undefined) out[field] = value;
  }
  return out;
}

const bad = (code: number, description: string, detail: string) => new KsefFailure(400, code, description, [detail]);

/**
 * POST /certificates/enrollments' checks (OAS 400 table): a readable, self-verifying PKCS#10 (25004) signed with
 * RSA PKCS#1 v1.5, RSA-PSS or ECDSA over SHA-1/2 (25011), an RSA-2048 or EC P-256 key (25010), and exactly the
 * subject the login certificate gave (25003).
 */
export async function checkCsr(csrBase64: string, subject: CertificateSubject): Promise<x509.Pkcs10CertificateRequest> {
  let csr: x509.Pkcs10CertificateRequest;
  try {
    csr = new x509.Pkcs10CertificateRequest(new Uint8Array(Buffer.from(csrBase64, 'base64')));
  } catch (err) {
    throw bad(25004, 'Niepoprawny format CSR lub niepoprawny podpis CSR.', err instanceof Error ? err.message : String(err));
  }
  const alg = csr.signatureAlgorithm as Algorithm & { hash?: { name: string } };
  if (!['RSASSA-PKCS1-v1_5', 'RSA-PSS', 'ECDSA'].includes(alg.name) || !['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512'].includes(alg.hash?.name ?? '')) {
    throw bad(25011, 'Nieprawidłowy algorytm podpisu CSR.', `${alg.name} ${alg.hash?.name ?? ''}`.trim());
  }
  const key = createPublicKey({ key: Buffer.from(csr.publicKey.rawData), format: 'der', type: 'spki' });
  const rsaOk = key.asymmetricKeyType === 'rsa' && key.asymmetricKeyDetails?.modulusLength === 2048;
  const ecOk = key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  if (!rsaOk && !ecOk)
    throw bad(
      25010,
      'Nieprawidłowy typ lub długość klucza.',
      `${key.asymmetricKeyType} ${key.asymmetricKeyDetails?.modulusLength ?? key.asymmetricKeyDetails?.namedCurve ?? ''}`,
    );
  let verified = false;
  try {
    verified = await csr.verify(webcrypto as unknown as Crypto);
  } catch {
    verified = false;
  }
  if (!verified) throw bad(25004, 'Niepoprawny format CSR lub niepoprawny podpis CSR.', 'Podpis CSR nie weryfikuje się kluczem z CSR.');
  const given = attributesOf(csr.subjectName)
    .map((a) => `${a.oid}=${a.value}`)
    .sort();
  const expected = subject.attributes.map((a) => `${a.oid}=${a.value}`).sort();
  if (given.join('\n') !== expected.join('\n')) {
    throw bad(25003, 'Dane w CSR nie zgadzają się z danymi w użytym wektorze uwierzytelniającym.', `Oczekiwano: ${expected.join(', ')}.`);
  }
  return csr;
}

type Authority = { keys: CryptoKeyPair; name: x509.Name };
let authority: Promise<Authority> | undefined;

function emulatorAuthority(): Promise<Authority> {
  authority ??= webcrypto.subtle
    .generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])
    .then((keys) => ({ keys: keys as CryptoKeyPair, name: new x509.Name('CN=KSeF Emulator CA, O=KSeF Relay emulator, C=PL') }));
  return authority;
}

/** A certificate for the CSR's key, signed by the emulator's CA; Offline ones carry Non-Repudiation only (README §4.1). */
export async function issueCertificate(
  csr: x509.Pkcs10CertificateRequest,
  type: KsefCertificateType,
  validFrom: Date,
  validTo: Date,
): Promise<{ serialNumber: string; der: Buffer }> {
  const ca = await emulatorAuthority();
  const serialNumber = randomBytes(8)
    .toString('hex')
    .toUpperCase()
    .replace(/^[89A-F]/, '1');
  const usage = type === 'Offline' ? x509.KeyUsageFlags.nonRepudiation : x509.KeyUsageFlags.digitalSignature;
  const cert = await x509.X509CertificateGenerator.create(
    {
      serialNumber,
      subject: csr.subjectName,
      issuer: ca.name,
      notBefore: validFrom,
      notAfter: validTo,
      publicKey: csr.publicKey,
      signingKey: ca.keys.privateKey,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      extensions: [new x509.BasicConstraintsExtension(false, undefined, true), new x509.KeyUsagesExtension(usage, true)],
    },
    webcrypto as unknown as Crypto,
  );
  return { serialNumber, der: Buffer.from(cert.rawData) };
}
