// Generated from server/facts/ by `npm run facts:sdk` (scripts/sdk-facts.ts); do not edit.

/** The document statuses (spec 3). */
export const DOCUMENT_STATUSES = ['pending', 'queued', 'sending', 'accepted', 'rejected', 'skipped', 'waiting_for_plan_limit', 'error'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
/** Final states of spec 3: nothing changes a document after them (corrections are new documents). */
export const FINAL_STATUSES: readonly DocumentStatus[] = ['accepted', 'rejected', 'skipped', 'error'];
/** The event types of GET /v1/events and webhooks. */
export const EVENT_TYPES = [
  'invoice.accepted',
  'invoice.rejected',
  'invoice.skipped',
  'invoice.error',
  'correction.accepted',
  'correction.rejected',
  'correction.skipped',
  'correction.error',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** The VAT rates the API takes, as `vat_rate` text. */
export const VAT_RATES = ['23', '8', '5', '0'] as const;
export type VatRate = (typeof VAT_RATES)[number];
export const ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'not_found_error',
  'idempotency_error',
  'rate_limit_error',
  'api_error',
  'invoice_error',
  'ksef_error',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];
/** Codes of request errors (HTTP answers). */
export const REQUEST_ERROR_CODES = [
  'parameter_missing',
  'parameter_invalid',
  'body_invalid_json',
  'body_too_large',
  'buyer_nip_missing',
  'buyer_nip_invalid',
  'order_not_paid',
  'order_cancelled',
  'currency_not_supported',
  'vat_rate_missing',
  'vat_rate_unsupported',
  'order_unprocessable',
  'correction_requires_invoice',
  'livemode_mismatch',
  'resource_missing',
  'route_not_found',
  'method_not_allowed',
  'pdf_not_ready',
  'upo_not_ready',
  'xml_not_ready',
  'url_not_public',
  'document_not_retryable',
  'webhook_endpoint_limit',
  'api_key_missing',
  'api_key_invalid',
  'live_mode_disabled',
  'idempotency_key_reused',
  'idempotency_key_invalid',
  'rate_limited',
  'internal_error',
] as const;
export type RequestErrorCode = (typeof REQUEST_ERROR_CODES)[number];
/** Codes of document errors (`last_error`). */
export const DOCUMENT_ERROR_CODES = [
  'seller_not_configured',
  'plan_limit_reached',
  'invoice_build_failed',
  'invoice_schema_invalid',
  'original_not_invoiced',
  'original_rejected',
  'issued_outside_ksef',
  'ksef_not_connected',
  'ksef_auth_failed',
  'ksef_duplicate_number',
  'ksef_rejected',
  'ksef_unavailable',
] as const;
export type DocumentErrorCode = (typeof DOCUMENT_ERROR_CODES)[number];
