export { KsefRelay, type KsefRelayOptions, type RequestOptions, type WaitOptions } from './client.js';
export { isKsefRelayError, KsefRelayConnectionError, KsefRelayError } from './errors.js';
export * from './types.js';
export { checkWebhookSignature, verifyWebhookSignature, type WebhookSignatureCheck, type WebhookSignatureFailure } from './verify-webhook-signature.js';
