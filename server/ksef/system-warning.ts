/**
 * KSeF's non-blocking warnings (API 2.6.0 changelog: the optional `X-System-Warning` response header, "something
 * that may be rejected later"; the operation itself succeeded). Not in shared/ksef's 2.6.0 OpenAPI; the value's form
 * `[code]: message | [code]: message`, ASCII-folded, is the one of the OpenAPI's `SystemWarning` description in
 * later versions of CIRFMF/ksef-docs. On TEST, a request header `X-Test-System-Warning` makes KSeF answer with its
 * content as `X-System-Warning`.
 */
export const SYSTEM_WARNING_HEADER = 'x-system-warning';
export const TEST_SYSTEM_WARNING_HEADER = 'x-test-system-warning';

export type SystemWarning = { code: string | null; message: string };

/** The warnings of one header value; text outside the `[code]: message` form is kept whole, without a code. */
export function parseSystemWarnings(value: string): SystemWarning[] {
  return value
    .split('|')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const m = /^\[([^\]]+)\]:\s*(.+)$/s.exec(part);
      return m ? { code: m[1]!.trim(), message: m[2]!.trim() } : { code: null, message: part };
    });
}

/** What a warned request concerns, as far as its path, or its answer's reference number, tells. */
export type WarningSubject = { sessionRef: string | null; invoiceRef: string | null; ksefNumber: string | null };

const REF = '(\\d{8}-[A-Z]{2}-[0-9A-F]{10}-[0-9A-F]{10}-[0-9A-F]{2})';
const KSEF_NUMBER = /\b(\d{10}-\d{8}-[0-9A-F]{12}-[0-9A-F]{2})\b/;

export function warningSubject(method: string, path: string, responseText: string): WarningSubject {
  const session = new RegExp(`^/sessions/(?:online/|batch/)?${REF}`).exec(path)?.[1] ?? null;
  let invoiceRef = new RegExp(`^/sessions/${REF}/invoices/${REF}`).exec(path)?.[2] ?? null;
  // POST /sessions/online/{ref}/invoices answers with the new invoice's reference number
  if (!invoiceRef && method === 'POST' && new RegExp(`^/sessions/online/${REF}/invoices$`).test(path)) {
    try {
      const ref = (JSON.parse(responseText) as { referenceNumber?: unknown }).referenceNumber;
      invoiceRef = typeof ref === 'string' ? ref : null;
    } catch {
      invoiceRef = null;
    }
  }
  return { sessionRef: session, invoiceRef, ksefNumber: KSEF_NUMBER.exec(path)?.[1] ?? null };
}
