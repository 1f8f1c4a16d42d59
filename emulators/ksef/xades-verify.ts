import { createHash, X509Certificate } from 'node:crypto';
import { DOMParser, XMLSerializer, type Element as XmlElement } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { validateXml } from '@/server/ksef/xsd';
import { ECDSA_SHA256, EcdsaSha256 } from '@/server/ksef/xmldsig-algorithms';
import { KsefFailure } from './kit';

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const NS_20 = 'http://ksef.mf.gov.pl/auth/token/2.0';
const NS_21 = 'http://ksef.mf.gov.pl/auth/token/2.1';

export type VerifiedAuthRequest = {
  challenge: string;
  contextNip: string;
  subjectNip?: string;
  documentDigest: string;
  organisation: boolean;
  /** The DER login certificate, for the subject KSeF certificates are enrolled in. */
  certificateDer: Buffer;
};

const bad = (code: number, description: string, detail: string) => new KsefFailure(400, code, description, [detail]);

/** The NIP the test environment reads from the subject (README §5.3): VATPL- in 2.5.4.97, TINPL-/NIP in serialNumber. */
export function subjectNip(cert: X509Certificate): { nip?: string; organisation: boolean } {
  const lines = cert.subject.split('\n');
  const value = (names: string[]) =>
    lines
      .find((l) => names.some((n) => l.startsWith(`${n}=`)))
      ?.split('=')
      .slice(1)
      .join('=');
  const orgId = value(['organizationIdentifier', '2.5.4.97']);
  if (orgId) return { nip: /(VATPL).*?(\d{10})/.exec(orgId)?.[2], organisation: true };
  const serial = value(['serialNumber']);
  return { nip: serial ? /(TINPL|NIP).*?(\d{10})/.exec(serial)?.[2] : undefined, organisation: false };
}

const text = (root: XmlElement, name: string) => root.getElementsByTagNameNS(root.namespaceURI ?? '', name)[0]?.textContent?.trim() ?? '';

/**
 * Checks a signed AuthTokenRequest as KSeF does (README §5.3, §14): one enveloped/enveloping signature that verifies
 * with the embedded certificate (self-signed accepted), then the document without the signature against the auth XSD.
 */
export function verifyAuthTokenRequest(xml: string): VerifiedAuthRequest {
  let doc: ReturnType<DOMParser['parseFromString']>;
  try {
    doc = new DOMParser({
      onError: (level, msg) => {
        if (level !== 'warning') throw new Error(msg);
      },
    }).parseFromString(xml, 'text/xml');
  } catch (err) {
    throw bad(21001, 'Nieczytelna treść.', err instanceof Error ? err.message : String(err));
  }
  const root = doc.documentElement;
  if (!root) throw bad(21001, 'Nieczytelna treść.', 'Pusty dokument.');
  const signatures = Array.from(doc.getElementsByTagNameNS(DSIG, 'Signature'));
  if (signatures.length === 0) throw bad(9102, 'Brak podpisu.', 'Dokument nie zawiera elementu ds:Signature.');
  if (signatures.length > 1) throw bad(9103, 'Przekroczona liczba podpisów.', `Podpisów: ${signatures.length}.`);
  const signature = signatures[0] as unknown as XmlElement;
  const certText = signature.getElementsByTagNameNS(DSIG, 'X509Certificate')[0]?.textContent?.replace(/\s+/g, '');
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(Buffer.from(certText ?? '', 'base64'));
  } catch {
    throw bad(21115, 'Nieprawidłowy certyfikat.', 'Brak lub nieczytelny X509Certificate w KeyInfo.');
  }
  const verifier = new SignedXml({ publicCert: cert.toString() });
  verifier.SignatureAlgorithms[ECDSA_SHA256] = EcdsaSha256;
  let valid = false;
  try {
    verifier.loadSignature(signature as unknown as string);
    valid = verifier.checkSignature(xml);
  } catch (err) {
    throw bad(9105, 'Nieprawidłowy podpis.', err instanceof Error ? err.message : String(err));
  }
  if (!valid) throw bad(9105, 'Nieprawidłowy podpis.', 'Podpis nie weryfikuje się kluczem z certyfikatu.');
  // Detached signatures are refused: a reference must cover the whole document.
  const coversDocument = verifier.getSignedReferences().length > 0 && /<ds:Reference[^>]*URI=""/.test(new XMLSerializer().serializeToString(signature));
  if (!coversDocument) throw bad(9101, 'Nieprawidłowy dokument.', 'Podpis nie obejmuje całego dokumentu (wymagany podpis otaczany).');

  signature.parentNode?.removeChild(signature);
  let unsigned = new XMLSerializer().serializeToString(doc);
  if (root.namespaceURI === NS_20) unsigned = unsigned.split(NS_20).join(NS_21); // 2.0's XSD does not compile; 2.1 differs only in IPv4 patterns
  if (root.namespaceURI !== NS_20 && root.namespaceURI !== NS_21)
    throw bad(21401, 'Dokument nie jest zgodny ze schematem.', `Nieznana przestrzeń nazw ${root.namespaceURI}.`);
  const checked = validateXml(unsigned, 'auth');
  if (!checked.ok) throw bad(21401, 'Dokument nie jest zgodny ze schematem.', checked.message);

  const contextNip = text(root, 'Nip');
  if (!contextNip) throw bad(21117, 'Nieprawidłowy identyfikator podmiotu dla wskazanego typu kontekstu.', 'Emulator obsługuje tylko kontekst Nip.');
  const subject = subjectNip(cert);
  return {
    challenge: text(root, 'Challenge'),
    contextNip,
    subjectNip: subject.nip,
    organisation: subject.organisation,
    documentDigest: createHash('sha256').update(xml).digest('base64'),
    certificateDer: cert.raw,
  };
}
