import { log } from '@/server/observability/log';
import { AppError, docUrl, type ErrorBody } from '@/server/errors';
import { ERRORS, type ErrorCode } from '@/server/facts/error-codes';

export type { ErrorBody };

/** The Error object of spec 2.3 for a code, with optional param, message and KSeF code. */
export function errorObject(code: ErrorCode, param?: string, message?: string, ksefCode?: number): ErrorBody {
  const spec = ERRORS[code];
  return {
    type: spec.type,
    code,
    message: message ?? spec.message,
    ...(param !== undefined && { param }),
    ...(ksefCode !== undefined && { ksef_code: ksefCode }),
    doc_url: docUrl(code),
  };
}

/** The only place a failure becomes an HTTP error: AppErrors map through the table, anything else is a 500. */
export function toErrorResponse(err: unknown): { status: number; body: { error: ErrorBody }; headers: Record<string, string> } {
  if (err instanceof AppError) {
    const status = ERRORS[err.code].status ?? 500;
    return { status, body: { error: errorObject(err.code, err.param, err.message, err.extra.ksefCode) }, headers: err.extra.headers ?? {} };
  }
  log.error({ err }, 'internal_error');
  return { status: 500, body: { error: errorObject('internal_error') }, headers: {} };
}
