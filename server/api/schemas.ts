import { z } from 'zod';
import { ksefEnvironmentEnum } from '@/server/db/schema';
import { DOCUMENT_STATUSES } from '@/server/facts/document-statuses';
import { ERROR_TYPES, type ErrorCode } from '@/server/facts/error-codes';
import { EVENT_TYPES } from '@/server/facts/event-types';
import { OUTAGE_MODES } from '@/server/outage/mode-names';

/**
 * The response objects of spec section 2 as zod schemas: the OpenAPI document is generated from them, a type
 * test ties the serializers' return types to them, and the HTTP contract test validates real answers against
 * the generated document.
 */
const unix = z.number().int().describe('Unix seconds');
const decimal = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .describe('decimal text, dot separator, two decimals');
export const ZErrorObject = z
  .object({
    type: z.enum(ERROR_TYPES),
    code: z.string().describe('stable machine-readable code (spec 7)'),
    message: z.string().describe('human text in English; may change'),
    param: z.string().optional().describe('JSON path of the offending parameter, e.g. `order.buyer.nip`'),
    ksef_code: z.number().int().optional().describe("KSeF's own numeric code"),
    doc_url: z.string().describe('`{errors page}#<code>`'),
  })
  .meta({ id: 'Error' });

/** `{ error: Error }` whose code is one of `codes` (one schema per operation and status in the document). */
export const errorEnvelope = (codes: readonly ErrorCode[]) => z.object({ error: ZErrorObject.extend({ code: z.enum(codes as [ErrorCode, ...ErrorCode[]]) }) });

const documentFields = {
  livemode: z.boolean(),
  status: z.enum(DOCUMENT_STATUSES),
  order: z.object({ external_id: z.string(), number: z.string().nullable() }),
  number: z.string().nullable().describe('gapless per month, assigned by the queue'),
  ksef_number: z.string().nullable(),
  ksef_environment: z.enum(ksefEnvironmentEnum.enumValues),
  issue_date: z.string().nullable().describe('YYYY-MM-DD'),
  currency: z.string().nullable(),
  total_gross: decimal.nullable().describe('gross total in the invoice currency; negative for corrections'),
  buyer_nip: z.string().nullable(),
  pdf_url: z.string().nullable().describe('public link for the buyer, no API key needed'),
  last_error: ZErrorObject.nullable(),
  offline: z
    .object({
      issued_at: unix.nullable().describe('when the invoice was handed to the buyer outside KSeF (offline PDF and e-mail), or first sent offline'),
      deadline: unix
        .nullable()
        .describe(
          'by when KSeF must have it, per mode: offline24 the end of the next working day after the issue date; unavailable the next working day after the announced end; failure 7 working days after it; null while the end is not announced, and for total_failure',
        ),
      deadline_missed: z.boolean().describe('KSeF received it after the deadline (it still accepts; the seller must know)'),
      technical_correction_of: z.string().nullable().describe('Base64 SHA-256 of the rejected offline XML this technical correction replaces'),
      mode: z
        .enum(OUTAGE_MODES)
        .describe('offline24 (art. 106nda), unavailable (announced unavailability, art. 106nh), failure (art. 106nf) or total_failure (art. 106ng)'),
      jpk_marker: z
        .enum(['OFF', 'BFK', 'DI'])
        .nullable()
        .describe(
          'what the JPK_V7 sales row carries while KSeF has not numbered it: OFF (failure), BFK (total failure), DI (offline24, unavailable); null once it has a KSeF number',
        ),
    })
    .nullable()
    .describe('set when the document was issued or sent in offline mode (beyond spec: see the README); null otherwise'),
  created: unix,
  updated: unix,
};

export const ZCorrection = z
  .object({
    id: z.string().regex(/^cor_/),
    object: z.literal('correction'),
    ...documentFields,
    invoice: z.string().nullable().describe('id of the corrected invoice'),
    refund: z.object({ external_id: z.string().nullable() }),
  })
  .meta({ id: 'Correction' });

export const ZInvoice = z
  .object({ id: z.string().regex(/^inv_/), object: z.literal('invoice'), ...documentFields, corrections: z.array(ZCorrection) })
  .meta({ id: 'Invoice' });

export const ZDocument = z.discriminatedUnion('object', [ZInvoice, ZCorrection]).meta({ id: 'Document' });

export const ZAccount = z
  .object({
    id: z.string().regex(/^acct_/),
    object: z.literal('account'),
    livemode: z.boolean(),
    email: z.string().nullable(),
    platform: z.enum(['api', 'shopplatform']),
    ksef_environment: z.enum(ksefEnvironmentEnum.enumValues),
    seller: z.object({ nip: z.string().nullable(), name: z.string().nullable(), address_line1: z.string().nullable(), address_line2: z.string().nullable() }),
    seller_configured: z.boolean(),
    ksef_connected: z.boolean(),
    ksef_check_error: z.string().nullable(),
    plan: z.object({ name: z.string(), monthly_limit: z.number().int().nullable(), used_this_month: z.number().int() }),
  })
  .meta({ id: 'Account' });

const webhookEndpointFields = {
  id: z.string().regex(/^we_/),
  object: z.literal('webhook_endpoint'),
  livemode: z.boolean(),
  url: z.string(),
  enabled_events: z.array(z.enum([...EVENT_TYPES, '*'])),
  description: z.string().nullable(),
  status: z.enum(['enabled', 'disabled']),
  created: unix,
};
export const ZWebhookEndpoint = z.object(webhookEndpointFields).meta({ id: 'WebhookEndpoint' });
export const ZWebhookEndpointWithSecret = z
  .object({
    ...webhookEndpointFields,
    secret: z
      .string()
      .regex(/^whsec_/)
      .describe('signing secret: in the create answer only'),
  })
  .meta({ id: 'WebhookEndpointWithSecret' });
export const ZDeletedWebhookEndpoint = z
  .object({ id: z.string().regex(/^we_/), object: z.literal('webhook_endpoint'), deleted: z.literal(true) })
  .meta({ id: 'DeletedWebhookEndpoint' });

export const ZEvent = z
  .object({
    id: z.string().regex(/^evt_/),
    object: z.literal('event'),
    type: z.enum(EVENT_TYPES),
    livemode: z.boolean(),
    created: unix,
    data: z.object({ object: ZDocument.describe('the document as it was at the event') }),
  })
  .meta({ id: 'Event' });

/** The list envelope of spec 2.9, newest first. */
export const listOf = <T extends z.ZodType>(item: T, url: string) =>
  z.object({ object: z.literal('list'), url: z.literal(url), has_more: z.boolean(), data: z.array(item) });
