import { createHash, createPrivateKey, createPublicKey, sign, verify, constants, type KeyObject } from 'node:crypto';

export type KsefEnvironment = 'test' | 'demo' | 'prod';

/** Verification hosts per environment (KSeF brief §2, §10). */
const QR_BASE: Record<KsefEnvironment, string> = {
  test: 'https://qr-test.ksef.mf.gov.pl',
  demo: 'https://qr-demo.ksef.mf.gov.pl',
  prod: 'https://qr.ksef.mf.gov.pl',
};

export type KodIInput = {
  environment: KsefEnvironment;
  sellerNip: string;
  /** P_1, the invoice's issue date, YYYY-MM-DD. */
  issueDate: string;
  /** The exact bytes sent to KSeF: a string is hashed as UTF-8. */
  xml: string | Buffer;
};

/** KOD I, the link printed as the invoice's QR code: `{base}/invoice/{NIP}/{DD-MM-YYYY}/{SHA-256 base64url}`. */
export function kodIUrl({ environment, sellerNip, issueDate, xml }: KodIInput): string {
  if (!/^\d{10}$/.test(sellerNip)) throw new Error(`seller NIP must be 10 digits, got ${JSON.stringify(sellerNip)}`);
  const hash = createHash('sha256').update(xml).digest('base64url'); // Node's base64url never pads
  return `${QR_BASE[environment]}/invoice/${sellerNip}/${toDayMonthYear(issueDate)}/${hash}`;
}

/** The login context KOD II names (kody-qr.md): the context in which the issuer works. */
export type ContextType = 'Nip' | 'InternalId' | 'NipVatUe' | 'PeppolId';

export type KodIIInput = {
  environment: KsefEnvironment;
  contextType: ContextType;
  contextValue: string;
  sellerNip: string;
  /** certificateSerialNumber of the KSeF certificate of type Offline (never an Authentication one). */
  certificateSerial: string;
  xml: string | Buffer;
  /** The private key of that Offline certificate, PEM or KeyObject: RSA (≥ 2048 bits) or EC P-256. */
  privateKey: string | KeyObject;
};

/**
 * KOD II, the issuer-certificate link of an offline invoice, labelled CERTYFIKAT (KSeF brief §10; kody-qr.md):
 * `{base}/certificate/{ctxType}/{ctxValue}/{sellerNip}/{serial}/{hash}/{signature}`. The signature covers the link
 * without `https://` and without its own segment, as UTF-8: RSASSA-PSS SHA-256/MGF1-SHA-256 with a 32-byte salt, or
 * ECDSA P-256 SHA-256 as IEEE P1363 R‖S (the recommended form); both Base64URL without padding.
 */
export function kodIIUrl(input: KodIIInput): string {
  if (!/^\d{10}$/.test(input.sellerNip)) throw new Error(`seller NIP must be 10 digits, got ${JSON.stringify(input.sellerNip)}`);
  if (!/^[0-9A-F]{16}$/.test(input.certificateSerial))
    throw new Error(`certificate serial must be 16 upper-case hex digits, got ${JSON.stringify(input.certificateSerial)}`);
  if (!input.contextValue || input.contextValue.includes('/')) throw new Error('context value must be a non-empty path segment');
  const hash = createHash('sha256').update(input.xml).digest('base64url');
  const unsigned = `${QR_BASE[input.environment]}/certificate/${input.contextType}/${input.contextValue}/${input.sellerNip}/${input.certificateSerial}/${hash}`;
  return `${unsigned}/${signKodII(signedPart(unsigned), input.privateKey)}`;
}

/** What KOD II's signature covers: the link without the scheme (and without the signature segment). */
const signedPart = (unsignedUrl: string) => Buffer.from(unsignedUrl.replace(/^https:\/\//, ''), 'utf8');

function signKodII(data: Buffer, privateKey: string | KeyObject): string {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  if (key.asymmetricKeyType === 'rsa') {
    if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) throw new Error('KOD II needs an RSA key of at least 2048 bits');
    return sign('sha256', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }).toString('base64url');
  }
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') {
    return sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' }).toString('base64url');
  }
  throw new Error(`KOD II signs with RSA or EC P-256 keys, not ${key.asymmetricKeyType}`);
}

export type KodIIParts = {
  host: string;
  contextType: string;
  contextValue: string;
  sellerNip: string;
  certificateSerial: string;
  /** Base64URL SHA-256 of the invoice XML. */
  invoiceHash: string;
  signature: Buffer;
  /** The bytes the signature covers. */
  signed: Buffer;
};

/** Splits a KOD II link into its segments; null when it is not one. */
export function parseKodIIUrl(url: string): KodIIParts | null {
  const m = /^https:\/\/([^/]+)\/certificate\/([^/]+)\/([^/]+)\/(\d{10})\/([0-9A-F]{16})\/([A-Za-z0-9_-]{43})\/([A-Za-z0-9_-]+)$/.exec(url);
  if (!m) return null;
  const [, host, contextType, contextValue, sellerNip, certificateSerial, invoiceHash, signature] = m as unknown as string[];
  return {
    host: host!,
    contextType: contextType!,
    contextValue: contextValue!,
    sellerNip: sellerNip!,
    certificateSerial: certificateSerial!,
    invoiceHash: invoiceHash!,
    signature: Buffer.from(signature!, 'base64url'),
    signed: Buffer.from(`${host}/certificate/${contextType}/${contextValue}/${sellerNip}/${certificateSerial}/${invoiceHash}`, 'utf8'),
  };
}

/** Checks a KOD II signature with the certificate's public key: RSA-PSS (salt 32), ECDSA as P1363 or DER. */
export function verifyKodIISignature(parts: Pick<KodIIParts, 'signed' | 'signature'>, publicKey: string | KeyObject): boolean {
  const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
  if (key.asymmetricKeyType === 'rsa')
    return verify('sha256', parts.signed, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, parts.signature);
  if (key.asymmetricKeyType === 'ec') {
    const encoding = parts.signature.length === 64 ? 'ieee-p1363' : 'der';
    return verify('sha256', parts.signed, { key, dsaEncoding: encoding }, parts.signature);
  }
  return false;
}

function toDayMonthYear(isoDate: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!m) throw new Error(`issue date must be YYYY-MM-DD, got ${JSON.stringify(isoDate)}`);
  return `${m[3]}-${m[2]}-${m[1]}`;
}
