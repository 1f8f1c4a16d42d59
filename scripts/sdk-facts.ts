import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { ROOT } from '@/server/config';
import { DOCUMENT_STATUSES, FINAL_STATUSES } from '@/server/facts/document-statuses';
import { ERROR_TYPES, ERRORS } from '@/server/facts/error-codes';
import { EVENT_TYPES } from '@/server/facts/event-types';
import { VAT_RATES } from '@/server/facts/vat-rates';

/**
 * The SDK's copy of server/facts/: the SDK is a package of its own (no imports from the service), so it gets the
 * facts as a generated file. `npm run facts:sdk` writes it; sdk/src/facts.test.ts fails when it differs from this.
 */
export const SDK_FACTS_FILE = path.join(ROOT, 'sdk/src/facts.ts');

const array = (values: readonly (string | number)[]) => `[${values.map((v) => `'${v}'`).join(', ')}]`;
const list = (values: readonly (string | number)[]) => `${array(values)} as const`;

/** Codes the /v1 API answers with (a status, not dashboard-only) or that only appear in a document's `last_error`. */
const codes = (onDocuments: boolean) =>
  Object.entries(ERRORS)
    .filter(([, spec]) => (spec.status === null) === onDocuments && !('surface' in spec))
    .map(([code]) => code);

export async function renderSdkFacts(): Promise<string> {
  const text = `// Generated from server/facts/ by \`npm run facts:sdk\` (scripts/sdk-facts.ts); do not edit.

/** The document statuses (spec 3). */
export const DOCUMENT_STATUSES = ${list(DOCUMENT_STATUSES)};
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
/** Final states of spec 3: nothing changes a document after them (corrections are new documents). */
export const FINAL_STATUSES: readonly DocumentStatus[] = ${array(FINAL_STATUSES)};
/** The event types of GET /v1/events and webhooks. */
export const EVENT_TYPES = ${list(EVENT_TYPES)};
export type EventType = (typeof EVENT_TYPES)[number];
/** The VAT rates the API takes, as \`vat_rate\` text. */
export const VAT_RATES = ${list(VAT_RATES)};
export type VatRate = (typeof VAT_RATES)[number];
export const ERROR_TYPES = ${list(ERROR_TYPES)};
export type ErrorType = (typeof ERROR_TYPES)[number];
/** Codes of request errors (HTTP answers). */
export const REQUEST_ERROR_CODES = ${list(codes(false))};
export type RequestErrorCode = (typeof REQUEST_ERROR_CODES)[number];
/** Codes of document errors (\`last_error\`). */
export const DOCUMENT_ERROR_CODES = ${list(codes(true))};
export type DocumentErrorCode = (typeof DOCUMENT_ERROR_CODES)[number];
`;
  return format(text, { ...(await resolveConfig(SDK_FACTS_FILE)), filepath: SDK_FACTS_FILE });
}
