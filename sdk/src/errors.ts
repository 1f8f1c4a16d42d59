import type { ApiErrorObject, ErrorType, RequestErrorCode } from './types.js';

/** An error answer of the API: `code` is the stable thing to branch on (see `doc_url`). */
export class KsefRelayError<C extends RequestErrorCode = RequestErrorCode> extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly code: C;
  readonly param: string | undefined;
  readonly docUrl: string;
  readonly requestId: string | null;
  /** Seconds the API asked to wait (429). */
  readonly retryAfter: number | undefined;

  constructor(status: number, error: ApiErrorObject<C>, requestId: string | null, retryAfter?: number) {
    super(`${error.code}: ${error.message}${error.param ? ` (${error.param})` : ''}`);
    this.name = 'KsefRelayError';
    this.status = status;
    this.type = error.type;
    this.code = error.code;
    this.param = error.param;
    this.docUrl = error.doc_url;
    this.requestId = requestId;
    this.retryAfter = retryAfter;
  }
}

/** Narrows an unknown error to an API error, optionally of given codes: `if (isKsefRelayError(e, 'pdf_not_ready')) …`. */
export function isKsefRelayError<C extends RequestErrorCode>(err: unknown, ...codes: C[]): err is KsefRelayError<C> {
  return err instanceof KsefRelayError && (codes.length === 0 || (codes as string[]).includes(err.code));
}

/** No answer at all after every retry (network failure, time-out). */
export class KsefRelayConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KsefRelayConnectionError';
  }
}
