import { vatRateList } from './vat-rates';

/**
 * The one table of error codes (spec section 7): the /v1 error envelope, the documents' `last_error`,
 * `doc_url` anchors and the errors page all read it. `status` is null for codes that only appear on documents.
 */
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

/** `dashboard`: answered by the dashboard and the CLI (store connections), never by /v1, so not in the OpenAPI document. */
type ErrorSpec = { status: number | null; type: ErrorType; message: string; help: string; surface?: 'dashboard' };

export const ERRORS = {
  // Request errors (spec 7.2)
  parameter_missing: { status: 400, type: 'invalid_request_error', message: 'A required parameter is missing.', help: 'Send the parameter named in `param`.' },
  parameter_invalid: {
    status: 400,
    type: 'invalid_request_error',
    message: 'A parameter has the wrong type or format.',
    help: 'Fix the parameter named in `param`; amounts are decimal strings such as "12.30", never JSON numbers.',
  },
  body_invalid_json: {
    status: 400,
    type: 'invalid_request_error',
    message: 'The request body is not valid JSON.',
    help: 'Send a JSON object with Content-Type: application/json.',
  },
  body_too_large: {
    status: 413,
    type: 'invalid_request_error',
    message: 'The request body is larger than 1 MB.',
    help: 'Split the order or shorten names; bodies are limited to 1 MB.',
  },
  buyer_nip_missing: {
    status: 400,
    type: 'invalid_request_error',
    message: 'The buyer has no NIP.',
    help: "Invoices go to business buyers only: send the buyer's Polish NIP.",
  },
  buyer_nip_invalid: {
    status: 400,
    type: 'invalid_request_error',
    message: 'The buyer NIP fails its checksum.',
    help: 'Check the 10 digits of the NIP; a PL prefix, spaces and hyphens are allowed.',
  },
  order_not_paid: { status: 400, type: 'invalid_request_error', message: 'The order is not paid.', help: 'Send the order once it is paid, with `paid_at`.' },
  order_cancelled: {
    status: 400,
    type: 'invalid_request_error',
    message: 'The order is cancelled.',
    help: 'Cancelled, refunded or failed orders are not invoiced.',
  },
  currency_not_supported: {
    status: 400,
    type: 'invalid_request_error',
    message: 'The currency has no NBP table A rate.',
    help: 'Use PLN or a currency of NBP table A.',
  },
  vat_rate_missing: {
    status: 400,
    type: 'invalid_request_error',
    message: 'A line or shipping has no VAT rate.',
    help: `Give every line and shipping item a \`vat_rate\` of ${vatRateList('or')}.`,
  },
  vat_rate_unsupported: {
    status: 400,
    type: 'invalid_request_error',
    message: `The VAT rate is not one of ${vatRateList()}.`,
    help: `Only the Polish rates ${vatRateList('and')} (domestic) are supported; exempt supplies are not.`,
  },
  order_unprocessable: {
    status: 422,
    type: 'invalid_request_error',
    message: 'The order cannot become an invoice.',
    help: 'The message says why (for example a negative fee, a total not above zero, or an amount-only refund).',
  },
  correction_requires_invoice: {
    status: 400,
    type: 'invalid_request_error',
    message: 'Corrections are made to invoices, not to corrections.',
    help: 'Use the `inv_` id of the original invoice.',
  },
  livemode_mismatch: {
    status: 400,
    type: 'invalid_request_error',
    message: 'The object belongs to the other mode.',
    help: 'Use a key of the same mode (test or live) as the invoice.',
  },
  resource_missing: {
    status: 404,
    type: 'not_found_error',
    message: 'No such object.',
    help: 'Check the id; objects of another account or mode are not visible.',
  },
  route_not_found: {
    status: 404,
    type: 'not_found_error',
    message: 'Unknown endpoint.',
    help: 'Every path starts with /v1; see the API reference for the list.',
  },
  method_not_allowed: {
    status: 405,
    type: 'invalid_request_error',
    message: 'The method is not supported on this endpoint.',
    help: 'The `Allow` header lists the methods the endpoint takes.',
  },
  pdf_not_ready: {
    status: 409,
    type: 'invalid_request_error',
    message: 'The PDF is not ready yet.',
    help: 'Retry after a few seconds, or wait for the accepted event.',
  },
  upo_not_ready: {
    status: 409,
    type: 'invalid_request_error',
    message: 'The UPO is not available yet.',
    help: 'KSeF issues the UPO after acceptance; retry after a few seconds.',
  },
  xml_not_ready: {
    status: 409,
    type: 'invalid_request_error',
    message: 'The FA(3) XML has not been built yet.',
    help: 'The XML exists once the document has been numbered and built; retry after a few seconds.',
  },
  url_not_public: {
    status: 400,
    type: 'invalid_request_error',
    message: 'The URL points at a private, loopback or link-local address.',
    help: 'Use a public host. Test mode may reach private addresses where the operator sets ALLOW_PRIVATE_TARGETS=1 (the local stack does); live mode never.',
  },
  document_not_retryable: {
    status: 409,
    type: 'invalid_request_error',
    message: 'Only a document in error, or skipped for seller data or an uninvoiced original, can be retried.',
    help: 'The document is on its way or final; GET it to see its status. Retry once the cause in `last_error` is fixed.',
  },
  webhook_endpoint_limit: {
    status: 400,
    type: 'invalid_request_error',
    message: 'This mode already has 16 active webhook endpoints.',
    help: 'Delete an endpoint you no longer need, then create the new one.',
  },
  api_key_missing: {
    status: 401,
    type: 'authentication_error',
    message: 'No API key was sent.',
    help: 'Send `Authorization: Bearer sk_test_…` or `sk_live_…`.',
  },
  api_key_invalid: {
    status: 401,
    type: 'authentication_error',
    message: 'The API key is wrong, revoked or its account is disabled.',
    help: 'Create a new key in the dashboard.',
  },
  live_mode_disabled: {
    status: 403,
    type: 'permission_error',
    message: 'Live mode is not enabled for this account.',
    help: 'Live mode is in early access; use a test key until it is enabled.',
  },
  idempotency_key_reused: {
    status: 409,
    type: 'idempotency_error',
    message: 'The Idempotency-Key was used with a different request.',
    help: 'Use a new key for a new request; a retry must repeat the same method, path and body.',
  },
  idempotency_key_invalid: {
    status: 400,
    type: 'idempotency_error',
    message: 'The Idempotency-Key must be 1-255 printable characters.',
    help: 'Use a UUID or similar.',
  },
  rate_limited: {
    status: 429,
    type: 'rate_limit_error',
    message: 'Too many requests.',
    help: 'Wait `Retry-After` seconds; each key may make 100 requests per minute.',
  },
  internal_error: {
    status: 500,
    type: 'api_error',
    message: 'Something went wrong on our side.',
    help: 'Retry with the same Idempotency-Key; tell support the Request-Id if it persists.',
  },
  // Store connections (dashboard and CLI; DESIGN.md "Store connections")
  store_unreachable: {
    status: 502,
    type: 'invalid_request_error',
    message: 'The store did not answer.',
    help: 'Check the store URL and that the shop is online; the message says what failed.',
    surface: 'dashboard',
  },
  store_rest_disabled: {
    status: 400,
    type: 'invalid_request_error',
    message: "The store's REST API is not available.",
    help: "Enable pretty permalinks and WooCommerce's REST API, or allow /wp-json in the security plugin.",
    surface: 'dashboard',
  },
  store_keys_invalid: {
    status: 400,
    type: 'invalid_request_error',
    message: 'The store refused the consumer key or secret.',
    help: 'Create a new key in WooCommerce → Settings → Advanced → REST API and paste both parts.',
    surface: 'dashboard',
  },
  store_keys_read_only: {
    status: 400,
    type: 'invalid_request_error',
    message: 'The REST key has no write permission.',
    help: 'Give the key Read/Write permission: the service registers webhooks and writes invoice notes.',
    surface: 'dashboard',
  },
  store_permission_denied: {
    status: 400,
    type: 'invalid_request_error',
    message: "The key's user may not manage WooCommerce.",
    help: 'Create the key for an administrator or shop manager.',
    surface: 'dashboard',
  },
  store_already_connected: {
    status: 409,
    type: 'invalid_request_error',
    message: 'This mode already has a store connected.',
    help: 'Disconnect the current store first.',
    surface: 'dashboard',
  },
  // Dashboard roles and invitations (issue 34)
  role_forbidden: {
    status: 403,
    type: 'permission_error',
    message: 'Your role in this account does not allow this.',
    help: "An accountant reads documents, registers and archives; keys, secrets, credentials, settings and members are the owner's.",
    surface: 'dashboard',
  },
  invite_invalid: {
    status: 404,
    type: 'not_found_error',
    message: 'This invitation link is unknown, expired, revoked or already used.',
    help: 'Ask an owner of the account for a new invitation.',
    surface: 'dashboard',
  },
  reset_invalid: {
    status: 404,
    type: 'not_found_error',
    message: 'This password reset link is unknown, expired, replaced by a newer one or already used.',
    help: 'Ask for a new link on the sign-in page.',
    surface: 'dashboard',
  },
  invite_email_mismatch: {
    status: 403,
    type: 'permission_error',
    message: 'The invitation was sent to another e-mail address.',
    help: 'Sign in with the address the invitation was sent to, or ask the owner to invite this one.',
    surface: 'dashboard',
  },
  already_member: {
    status: 409,
    type: 'invalid_request_error',
    message: 'This person is already a member of this account.',
    help: 'Change their role on the members page instead of inviting them again.',
    surface: 'dashboard',
  },
  last_owner: {
    status: 409,
    type: 'invalid_request_error',
    message: 'An account keeps at least one owner.',
    help: 'Make another member an owner first.',
    surface: 'dashboard',
  },
  // Document errors (spec 7.3), only ever in `last_error`
  seller_not_configured: {
    status: null,
    type: 'invoice_error',
    message: 'Seller NIP, name or address is missing or invalid in the account.',
    help: 'Complete or correct the seller data in the dashboard, then retry the document (its dashboard page, or POST /v1/invoices/{id}/retry).',
  },
  plan_limit_reached: {
    status: null,
    type: 'invoice_error',
    message: 'The monthly plan limit is used up; the document waits without a number.',
    help: 'Change the plan, or the document is numbered at the start of next month.',
  },
  invoice_build_failed: {
    status: null,
    type: 'invoice_error',
    message: 'The invoice cannot be built from the order data.',
    help: 'The message says which data is wrong.',
  },
  invoice_schema_invalid: {
    status: null,
    type: 'invoice_error',
    message: 'The FA(3) XML failed the official schema; nothing was sent to KSeF.',
    help: "The message holds the validator's text; contact support.",
  },
  original_not_invoiced: {
    status: null,
    type: 'invoice_error',
    message: 'The order has no invoice to correct.',
    help: 'The original invoice was skipped; nothing to correct in KSeF.',
  },
  original_rejected: {
    status: null,
    type: 'invoice_error',
    message: 'The original invoice was rejected by KSeF.',
    help: 'Fix and reissue the original first.',
  },
  issued_outside_ksef: {
    status: null,
    type: 'ksef_error',
    message: 'Issued outside KSeF during a total KSeF failure (art. 106ng VAT Act); such invoices are not sent to KSeF.',
    help: 'Nothing to do: the buyer has the invoice, and the sales register marks it BFK.',
  },
  ksef_not_connected: {
    status: null,
    type: 'ksef_error',
    message: 'No working KSeF certificate or token for this mode.',
    help: 'Connect KSeF in the dashboard; waiting documents resume by themselves.',
  },
  ksef_auth_failed: {
    status: null,
    type: 'ksef_error',
    message: 'KSeF refused the certificate or token.',
    help: 'The credential is expired, revoked or lacks permission for the NIP; upload a working one.',
  },
  ksef_duplicate_number: {
    status: null,
    type: 'ksef_error',
    message: 'KSeF already has an invoice of this seller with this number.',
    help: 'KSeF code 440: the number was used by another invoice of the seller.',
  },
  ksef_rejected: { status: null, type: 'ksef_error', message: 'KSeF rejected the document.', help: "KSeF's code and text are in `ksef_code` and `message`." },
  ksef_unavailable: {
    status: null,
    type: 'ksef_error',
    message: 'KSeF did not answer; the document will be retried.',
    help: 'Nothing to do: the document stays queued and is retried automatically.',
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;
