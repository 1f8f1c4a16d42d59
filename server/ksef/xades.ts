import { createHash, createPrivateKey, randomUUID, X509Certificate } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { ECDSA_SHA256, EcdsaSha256, RSA_SHA256 } from './xmldsig-algorithms';

export const AUTH_NS = 'http://ksef.mf.gov.pl/auth/token/2.0';
const XADES_NS = 'http://uri.etsi.org/01903/v1.3.2#';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';

export type AuthTokenRequestInput = {
  challenge: string;
  nip: string;
  subjectIdentifierType?: 'certificateSubject' | 'certificateFingerprint';
};

/** The unsigned AuthTokenRequest of README §5.3 in a NIP context. */
export function buildAuthTokenRequest({ challenge, nip, subjectIdentifierType = 'certificateSubject' }: AuthTokenRequestInput): string {
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<AuthTokenRequest xmlns="${AUTH_NS}">` +
    `<Challenge>${challenge}</Challenge><ContextIdentifier><Nip>${nip}</Nip></ContextIdentifier>` +
    `<SubjectIdentifierType>${subjectIdentifierType}</SubjectIdentifierType></AuthTokenRequest>`
  );
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** RFC 4514 order is the reverse of the certificate's; node prints one attribute per line in certificate order. */
const rfc4514 = (name: string) => name.split('\n').reverse().join(', ');

function signedProperties(cert: X509Certificate, signatureId: string, propertiesId: string, signingTime: Date): string {
  const certDigest = createHash('sha256').update(cert.raw).digest('base64');
  const serial = BigInt(`0x${cert.serialNumber}`).toString(10);
  return (
    `<xades:QualifyingProperties xmlns:xades="${XADES_NS}" Target="#${signatureId}">` +
    `<xades:SignedProperties Id="${propertiesId}"><xades:SignedSignatureProperties>` +
    `<xades:SigningTime>${signingTime.toISOString()}</xades:SigningTime>` +
    `<xades:SigningCertificate><xades:Cert><xades:CertDigest>` +
    `<ds:DigestMethod Algorithm="${SHA256}"/><ds:DigestValue>${certDigest}</ds:DigestValue>` +
    `</xades:CertDigest><xades:IssuerSerial><ds:X509IssuerName>${escapeXml(rfc4514(cert.issuer))}</ds:X509IssuerName>` +
    `<ds:X509SerialNumber>${serial}</ds:X509SerialNumber></xades:IssuerSerial></xades:Cert></xades:SigningCertificate>` +
    `</xades:SignedSignatureProperties></xades:SignedProperties></xades:QualifyingProperties>`
  );
}

/**
 * XAdES-BES enveloped signature over the whole document (README §5.3): RSA-SHA256 (PKCS#1 v1.5) or ECDSA-SHA256
 * by the key type, SHA-256 digests, exclusive C14N, the signing certificate in KeyInfo and in SignedProperties.
 */
export function signXades(xml: string, credential: { certificatePem: string; privateKeyPem: string }, signingTime = new Date()): string {
  const cert = new X509Certificate(credential.certificatePem);
  const ec = createPrivateKey(credential.privateKeyPem).asymmetricKeyType === 'ec';
  const signatureId = `Signature-${randomUUID()}`;
  const propertiesId = `SignedProperties-${randomUUID()}`;
  const sig = new SignedXml({
    privateKey: credential.privateKeyPem,
    publicCert: credential.certificatePem,
    signatureAlgorithm: ec ? ECDSA_SHA256 : RSA_SHA256,
    canonicalizationAlgorithm: EXC_C14N,
    objects: [{ content: signedProperties(cert, signatureId, propertiesId, signingTime) }],
  });
  sig.SignatureAlgorithms[ECDSA_SHA256] = EcdsaSha256;
  sig.addReference({
    xpath: '/*',
    isEmptyUri: true,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', EXC_C14N],
    digestAlgorithm: SHA256,
  });
  sig.addReference({
    xpath: `//*[@Id='${propertiesId}']`,
    transforms: [EXC_C14N],
    digestAlgorithm: SHA256,
    type: 'http://uri.etsi.org/01903#SignedProperties',
  });
  sig.computeSignature(xml, { prefix: 'ds', attrs: { Id: signatureId }, location: { reference: '/*', action: 'append' } });
  return sig.getSignedXml();
}
