export { KsefRelay, type KsefRelayOptions, type RequestOptions, type WaitOptions } from './client.js';
export { DOCUMENT_ERROR_CODES, DOCUMENT_STATUSES, ERROR_TYPES, EVENT_TYPES, FINAL_STATUSES, REQUEST_ERROR_CODES, VAT_RATES } from './facts.js';
export { isKsefRelayError, KsefRelayConnectionError, KsefRelayError } from './errors.js';
export * from './types.js';
export { checkWebhookSignature, verifyWebhookSignature, type WebhookSignatureCheck, type WebhookSignatureFailure } from './verify-webhook-signature.js';
