import { config } from './config';
import type { StoredError } from './db/schema';
import { ERRORS, type ErrorCode } from './facts/error-codes';
import { ERROR_DETAILS } from './facts/error-details';
import { fillTemplate, type TemplateParams } from './template';

export type ErrorDetail = keyof typeof ERROR_DETAILS;
export type ErrorParams = TemplateParams;

/** A failure that becomes the spec's error envelope; `param` is the JSON path of the offending input. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly param?: string,
    message?: string,
    readonly extra: { ksefCode?: number; headers?: Record<string, string>; detail?: ErrorDetail; params?: ErrorParams } = {},
  ) {
    super(message ?? ERRORS[code].message);
    this.name = 'AppError';
  }

  /** An error with a finer cause the dashboard translates; its message is the detail's English text. */
  static detailed(code: ErrorCode, param: string | undefined, detail: ErrorDetail, params: ErrorParams = {}): AppError {
    return new AppError(code, param, fillTemplate(ERROR_DETAILS[detail], params), { detail, params });
  }
}

export type ErrorBody = StoredError & { doc_url: string };

/** Every error's doc_url: the errors page the app serves, anchored at the code. */
export const docUrl = (code: string): string => `${config().ERRORS_PAGE_URL}#${code}`;

/** Adds doc_url to a stored `last_error` for the API. */
export const withDocUrl = (e: StoredError | null): ErrorBody | null => (e ? { ...e, doc_url: docUrl(e.code) } : null);
