import type { z } from 'zod';
import type { ZCreateWebhookEndpoint } from '@/server/webhooks/create-webhook-endpoint';
import type { ZOrderInput, ZRefundInput } from '@/server/orders/order-schema';
import type { ZAccount, ZCorrection, ZDeletedWebhookEndpoint, ZEvent, ZInvoice, ZWebhookEndpoint, ZWebhookEndpointWithSecret } from './schemas';

/**
 * One story told through every operation of the OpenAPI document: a ceramics shop (seller NIP 5265877635) invoices
 * an accounting office's paid order (buyer NIP 3861610227, both with a valid checksum, domain/nip.md) and later
 * refunds one mug. Request examples are sent as they are to a real server by openapi-examples.db.test.ts; the
 * answers here are what that server answers for them (ids, tokens and times differ). The types tie each example
 * to the schema it documents.
 */
const BASE_URL = 'https://relay.example.com';

export const ORDER_EXAMPLE = {
  external_id: 'order-10245',
  number: '10245',
  created_at: '2026-11-23T09:14:02+01:00',
  paid_at: '2026-11-23T09:16:45+01:00',
  currency: 'PLN',
  payment_method: 'transfer',
  buyer: {
    nip: '386-161-02-27',
    name: 'Biuro Rachunkowe Kowalska sp. z o.o.',
    address_line1: 'ul. Marszałkowska 84/92 lok. 12',
    address_line2: '00-514 Warszawa',
    email: 'faktury@biuro-kowalska.example',
  },
  lines: [
    { name: 'Kubek ceramiczny 330 ml, biały', sku: 'KUB-330-B', quantity: 6, unit_price: '39.90', discount: '12.00', vat_rate: '23' },
    { name: 'Herbata czarna liściasta 100 g', sku: 'HER-100', quantity: 2, unit_price: '24.50', vat_rate: '5' },
  ],
  shipping: [{ name: 'Kurier InPost', price: '16.99', vat_rate: '23' }],
} satisfies z.input<typeof ZOrderInput>;

/** One of the six mugs back: its gross price after the line discount (227.40 / 6). */
export const REFUND_EXAMPLE = {
  external_id: 'refund-10245-1',
  reason: 'Zwrot towaru: kubek uszkodzony w transporcie',
  created_at: '2026-11-27T14:03:00+01:00',
  lines: [{ name: 'Kubek ceramiczny 330 ml, biały', sku: 'KUB-330-B', quantity: 1, unit_price: '37.90', vat_rate: '23' }],
} satisfies z.input<typeof ZRefundInput>;

export const WEBHOOK_ENDPOINT_EXAMPLE = {
  url: 'https://sklep.example/webhooks/ksef-relay',
  enabled_events: ['invoice.accepted', 'invoice.rejected', 'correction.accepted', 'correction.rejected'],
  description: 'Sklep: oznacz zamówienie jako zafakturowane',
} satisfies z.input<typeof ZCreateWebhookEndpoint>;

/** The Warsaw month of the story's documents (issue dates 2026-11-23 and 2026-11-27). */
export const EXPORT_PERIOD = '2026-11';

export const INVOICE_ID = 'inv_y81GREDWTvZPrJy69EsOZw';
export const CORRECTION_ID = 'cor_xOzvWoaAynfOZRzr9K88Gt';
export const ENDPOINT_ID = 'we_Un8P2kkat1WHDJE032xvxQ';

const pendingFields = {
  livemode: false,
  status: 'pending',
  number: null,
  ksef_number: null,
  ksef_environment: 'test',
  issue_date: null,
  currency: null,
  total_gross: null,
  buyer_nip: null,
  pdf_url: null,
  last_error: null,
  offline: null,
} as const;

/** The order's number shows once the document is numbered (the prepare step reads it from the order). */
const ORDER_REF = { external_id: ORDER_EXAMPLE.external_id, number: ORDER_EXAMPLE.number };

/** The answer to POST /v1/invoices: at once, before the queue has numbered, built or sent anything. */
export const INVOICE_PENDING: z.output<typeof ZInvoice> = {
  id: INVOICE_ID,
  object: 'invoice',
  ...pendingFields,
  order: { ...ORDER_REF, number: null },
  created: 1795421806,
  updated: 1795421806,
  corrections: [],
};

/** 227.40 + 49.00 + 16.99 */
export const INVOICE_ACCEPTED: z.output<typeof ZInvoice> = {
  ...INVOICE_PENDING,
  order: ORDER_REF,
  status: 'accepted',
  number: 'FV/2026/11/128',
  ksef_number: '5265877635-20261123-0100003E7A41-7B',
  issue_date: '2026-11-23',
  currency: 'PLN',
  total_gross: '293.39',
  buyer_nip: '3861610227',
  pdf_url: `${BASE_URL}/d/em0jLw6os12yzZu0PGivnw`,
  updated: 1795421832,
};

export const CORRECTION_PENDING: z.output<typeof ZCorrection> = {
  id: CORRECTION_ID,
  object: 'correction',
  ...pendingFields,
  order: { ...ORDER_REF, number: null },
  invoice: INVOICE_ID,
  refund: { external_id: REFUND_EXAMPLE.external_id },
  created: 1795784710,
  updated: 1795784710,
};

export const CORRECTION_ACCEPTED: z.output<typeof ZCorrection> = {
  ...CORRECTION_PENDING,
  order: ORDER_REF,
  status: 'accepted',
  number: 'KOR/2026/11/9',
  ksef_number: '5265877635-20261127-01000041C9D2-DF',
  issue_date: '2026-11-27',
  currency: 'PLN',
  total_gross: '-37.90',
  buyer_nip: '3861610227',
  pdf_url: `${BASE_URL}/d/02BMhq1UPzOvjHgoY8JZPT`,
  updated: 1795784741,
};

export const RETRIED_ID = 'inv_Qm3vX7bTz1LkP0aR9cDe2f';

/**
 * The answer to POST /v1/invoices/{id}/retry: the invoice of a second order, placed while the seller's NIP was
 * mistyped, was skipped (seller_not_configured) without a number; with the NIP fixed it goes back to pending.
 */
export const INVOICE_RETRIED: z.output<typeof ZInvoice> = {
  ...INVOICE_PENDING,
  id: RETRIED_ID,
  order: { external_id: 'order-10246', number: null },
  created: 1795422410,
  updated: 1795422695,
};

export const INVOICE_WITH_CORRECTION: z.output<typeof ZInvoice> = { ...INVOICE_ACCEPTED, corrections: [CORRECTION_ACCEPTED] };

export const ACCOUNT_EXAMPLE: z.output<typeof ZAccount> = {
  id: 'acct_wVWIULv9Rspd5LtfieQhyu',
  object: 'account',
  livemode: false,
  email: 'biuro@ceramika-nowak.example',
  platform: 'api',
  ksef_environment: 'test',
  seller: { nip: '5265877635', name: 'Ceramika Nowak sp. z o.o.', address_line1: 'ul. Garncarska 7', address_line2: '30-012 Kraków' },
  seller_configured: true,
  ksef_connected: true,
  ksef_check_error: null,
  plan: { name: 'Start', monthly_limit: 100, used_this_month: 37 },
};

export const WEBHOOK_ENDPOINT: z.output<typeof ZWebhookEndpoint> = {
  id: ENDPOINT_ID,
  object: 'webhook_endpoint',
  livemode: false,
  ...WEBHOOK_ENDPOINT_EXAMPLE,
  status: 'enabled',
  created: 1795172400,
};
export const WEBHOOK_ENDPOINT_CREATED: z.output<typeof ZWebhookEndpointWithSecret> = {
  ...WEBHOOK_ENDPOINT,
  secret: 'whsec_zDtb56L65wpWofrV5vXdj7NRSnM9CHoR9bUeUqL4Jvt',
};
export const WEBHOOK_ENDPOINT_DELETED: z.output<typeof ZDeletedWebhookEndpoint> = { id: ENDPOINT_ID, object: 'webhook_endpoint', deleted: true };

export const EVENT_EXAMPLE: z.output<typeof ZEvent> = {
  id: 'evt_4XxukhI0Gi23sa9mOVNDKJ',
  object: 'event',
  type: 'invoice.accepted',
  livemode: false,
  created: 1795421832,
  data: { object: INVOICE_ACCEPTED },
};

export const list = <T>(url: string, data: T[]) => ({ object: 'list' as const, url, has_more: false, data });

/** `doc_url` as the server writes it for the examples' host. */
export const exampleDocUrl = (code: string) => `${BASE_URL}/docs/errors#${code}`;
