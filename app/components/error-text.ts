import { TRPCClientError } from '@trpc/client';
import type { Dictionary } from '@/app/i18n/pl';
import { checkErrorKind } from '@/server/ksef-connection/check-errors';
import { fillTemplate, type TemplateParams } from '@/server/template';
import { deliveryFailureKind } from '@/server/webhooks/delivery-failures';

export type FieldError = { message: string; param: string | null };

/** What server/trpc/init.ts puts beside a failed call: the service's code, field, finer cause and its values. */
type AppErrorData = { code: string; param: string | null; detail?: string | null; params?: TemplateParams | null };

/**
 * The message of a failed call in the user's language and the field it names (the service's `param`), for errors
 * beside fields: the finer cause's translation; else, for an English reader, the service's own (most specific)
 * message; else the translation of the service's code or of tRPC's. English text never reaches a Polish reader.
 */
export function readError(err: unknown, t: Dictionary): FieldError | null {
  if (!err) return null;
  const english = t.lang === 'en';
  const generic = t.unknownError;
  if (!(err instanceof TRPCClientError)) return { message: english && err instanceof Error ? err.message : generic, param: null };
  const data = err.data as { code?: string; appError?: AppErrorData | null } | undefined;
  const app = data?.appError;
  const detail = app?.detail ? t.errorDetails[app.detail] : undefined;
  if (detail) return { message: fillTemplate(detail, app?.params ?? {}), param: app?.param ?? null };
  if (english && app) return { message: err.message, param: app.param };
  const byCode = (app && t.errorCodes[app.code]) || (data?.code && t.errorCodes[data.code]);
  return { message: byCode || (english ? err.message : generic), param: app?.param ?? null };
}

/**
 * A failed webhook attempt in the reader's language: what kind of failure it was, then the stored technical text
 * (the address, the timeout, the network's code), which an operator needs whatever the language; an error status
 * is shown beside it as the response's status code.
 */
export function deliveryErrorText(error: string, t: Dictionary): string {
  const kind = deliveryFailureKind(error);
  return kind === 'answered' ? t.webhooks.failures.answered : `${t.webhooks.failures[kind]}: ${error}`;
}

/** A KSeF connection check's error: its kind in the reader's language; the stored (English) text for an English reader. */
export function checkErrorText(error: string | null, t: Dictionary): string | null {
  if (error === null || t.lang === 'en') return error;
  return t.ksef.checkErrors[checkErrorKind(error)];
}

/**
 * A document's stored error (`last_error`, a timeline step): the meaning of its code in the reader's language; an
 * English reader also gets the stored text (English, or KSeF's own), which says more. A code not of ours keeps the
 * stored text; a warning is its translated text.
 */
export function storedErrorText(e: { code: string; message: string; text?: string; params?: TemplateParams }, t: Dictionary): string {
  // a warning is said whole in the reader's language, its dates and values filled in
  const warning = e.text ? t.warningTexts[e.text] : undefined;
  if (warning) return fillTemplate(warning, e.params ?? {});
  const meaning = t.errorCodes[e.code];
  if (!meaning) return e.message;
  return t.lang === 'en' && e.message !== meaning ? `${meaning} ${e.message}` : meaning;
}
