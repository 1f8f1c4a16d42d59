/**
 * The objects of the KSeF Relay API (its OpenAPI document, /openapi.json), written out by hand so that the package
 * has no dependencies; `types.test.ts` checks them at compile time (`npm run typecheck`) against the server's zod schemas,
 * which the document is generated from. The enumerations (statuses, event types, VAT rates, error codes) come from
 * facts.ts, generated from the service's server/facts/.
 */
import type { DocumentErrorCode, DocumentStatus, ErrorType, EventType, RequestErrorCode, VatRate } from './facts.js';

export type { DocumentErrorCode, DocumentStatus, ErrorType, EventType, RequestErrorCode, VatRate };
export type KsefEnvironment = 'test' | 'demo' | 'prod';
export type ApiErrorObject<C extends string = string> = {
  type: ErrorType;
  code: C;
  message: string;
  param?: string;
  ksef_code?: number;
  doc_url: string;
};

type DocumentFields = {
  livemode: boolean;
  status: DocumentStatus;
  order: { external_id: string; number: string | null };
  number: string | null;
  ksef_number: string | null;
  ksef_environment: KsefEnvironment;
  issue_date: string | null;
  currency: string | null;
  total_gross: string | null;
  buyer_nip: string | null;
  pdf_url: string | null;
  last_error: ApiErrorObject | null;
  /** Set when the document was issued or sent in offline mode; null otherwise. */
  offline: {
    /** When it was handed to the buyer outside KSeF, or first sent offline (Unix seconds). */
    issued_at: number | null;
    /** By when KSeF must have it (Unix seconds). */
    deadline: number | null;
    deadline_missed: boolean;
    /** Base64 SHA-256 of the rejected offline XML this technical correction replaces. */
    technical_correction_of: string | null;
    /** The outage mode it was issued in: offline24, an announced unavailability, a failure or a total failure. */
    mode: 'offline24' | 'unavailable' | 'failure' | 'total_failure';
    /** The JPK_V7 marker while KSeF has not numbered it (OFF, BFK or DI); null once it has a KSeF number. */
    jpk_marker: 'OFF' | 'BFK' | 'DI' | null;
  } | null;
  created: number;
  updated: number;
};

export type Correction = DocumentFields & { id: string; object: 'correction'; invoice: string | null; refund: { external_id: string | null } };
export type Invoice = DocumentFields & { id: string; object: 'invoice'; corrections: Correction[] };
export type Document = Invoice | Correction;

export type Account = {
  id: string;
  object: 'account';
  livemode: boolean;
  email: string | null;
  platform: 'api' | 'shopplatform';
  ksef_environment: KsefEnvironment;
  seller: { nip: string | null; name: string | null; address_line1: string | null; address_line2: string | null };
  seller_configured: boolean;
  ksef_connected: boolean;
  ksef_check_error: string | null;
  plan: { name: string; monthly_limit: number | null; used_this_month: number };
};

export type WebhookEndpoint = {
  id: string;
  object: 'webhook_endpoint';
  livemode: boolean;
  url: string;
  enabled_events: (EventType | '*')[];
  description: string | null;
  status: 'enabled' | 'disabled';
  created: number;
};
export type WebhookEndpointWithSecret = WebhookEndpoint & { secret: string };
export type DeletedWebhookEndpoint = { id: string; object: 'webhook_endpoint'; deleted: true };

export type Event = { id: string; object: 'event'; type: EventType; livemode: boolean; created: number; data: { object: Document } };

export type List<T> = { object: 'list'; url: string; has_more: boolean; data: T[] };

/** Order of POST /v1/invoices (spec 2.4): amounts are decimal strings, never numbers. */
export type OrderInput = {
  external_id: string;
  number?: string | null;
  created_at?: string | null;
  paid_at: string;
  currency?: string | null;
  payment_method?: 'card' | 'transfer' | 'cash' | 'mobile' | null;
  /** `YYYY-MM-DD`, not after today: the day the goods were delivered or the service completed (printed as P_6). */
  delivered_at?: string | null;
  buyer: {
    nip: string;
    name: string;
    address_line1: string;
    address_line2?: string | null;
    email?: string | null;
    /** The buyer is a JST (local-government body); the unit the invoice concerns is `recipient`. Not with `vat_group`. */
    jst?: boolean | null;
    /** The buyer is a VAT group; the member the invoice concerns is `recipient`. Not with `jst`. */
    vat_group?: boolean | null;
    recipient?: { nip: string; name: string; address_line1: string; address_line2?: string | null } | null;
  };
  lines: {
    name: string;
    sku?: string | null;
    quantity: number;
    unit_price: string;
    discount?: string | null;
    vat_rate: VatRate;
    /** Goods or services of annex 15 to the VAT act (FA(3) P_12_Zal_15; split payment above 15,000 PLN). */
    annex15?: boolean | null;
  }[];
  shipping?: { name: string; price: string; vat_rate: VatRate }[] | null;
};

/** Refund of POST /v1/invoices/{id}/corrections (spec 2.5). */
export type RefundInput = {
  external_id: string;
  reason?: string | null;
  created_at?: string | null;
  /** restocking_fee: gross amount kept from the refund of these returned items; the correction shows it as a row */
  lines?: { name: string; sku?: string | null; quantity: number; unit_price: string; vat_rate: VatRate; restocking_fee?: string | null }[] | null;
  shipping?: { price: string } | null;
};

export type CreateInvoiceParams = { order: OrderInput } | { shopplatform_order: Record<string, unknown> };
export type CreateCorrectionParams = { refund: RefundInput } | { shopplatform_order: Record<string, unknown>; shopplatform_refund: Record<string, unknown> };
export type CreateWebhookEndpointParams = { url: string; enabled_events: (EventType | '*')[]; description?: string | null };

export type ListParams = { limit?: number; starting_after?: string };
export type ListInvoicesParams = ListParams & { external_id?: string };
export type ListEventsParams = ListParams & { type?: EventType };
