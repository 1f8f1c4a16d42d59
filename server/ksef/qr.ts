import { createHash } from 'node:crypto';

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

function toDayMonthYear(isoDate: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!m) throw new Error(`issue date must be YYYY-MM-DD, got ${JSON.stringify(isoDate)}`);
  return `${m[3]}-${m[2]}-${m[1]}`;
}
