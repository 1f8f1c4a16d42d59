import { createPrivateKey, createPublicKey, createSign, createVerify, type KeyLike } from 'node:crypto';
import { createOptionalCallbackFunction, type SignatureAlgorithm } from 'xml-crypto';

export const ECDSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256';
export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

/** ECDSA P-256 with SHA-256; XML-DSig carries the raw R‖S value (IEEE P1363), not DER (README §5.3). */
export class EcdsaSha256 implements SignatureAlgorithm {
  getSignature = createOptionalCallbackFunction((signedInfo: string | NodeJS.ArrayBufferView, privateKey: KeyLike): string =>
    createSign('SHA256')
      .update(signedInfo)
      .sign({ key: createPrivateKey(privateKey as string | Buffer), dsaEncoding: 'ieee-p1363' }, 'base64'),
  );
  verifySignature = createOptionalCallbackFunction((material: string, key: KeyLike, signatureValue: string): boolean =>
    createVerify('SHA256')
      .update(material)
      .verify({ key: createPublicKey(key as string | Buffer), dsaEncoding: 'ieee-p1363' }, signatureValue, 'base64'),
  );
  getAlgorithmName = () => ECDSA_SHA256;
}
