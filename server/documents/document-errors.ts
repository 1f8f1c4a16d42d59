import type { StoredError } from '@/server/db/schema';
import { ERRORS, type ErrorCode } from '@/server/facts/error-codes';

/** A `last_error` for a document code of spec 7.3, with KSeF's code and text where there is one. */
export function documentError(code: ErrorCode, message?: string, ksefCode?: number): StoredError {
  return { type: ERRORS[code].type, code, message: message ?? ERRORS[code].message, ...(ksefCode !== undefined && { ksef_code: ksefCode }) };
}
