export {
  checkWebhookSignature,
  verifyWebhookSignature,
  type WebhookSignatureCheck,
  type WebhookSignatureFailure,
} from './verify-webhook-signature';
