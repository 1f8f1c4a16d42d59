import { z } from 'zod';
import { ZCreateWebhookEndpoint } from '@/server/webhooks/create-webhook-endpoint';
import { ERRORS, type ErrorCode } from '@/server/facts/error-codes';
import { REQUESTS_PER_MINUTE } from '@/server/http/rate-limit';
import { ZOrderInput, ZRefundInput } from '@/server/orders/order-schema';
import { ZWcOrder, ZWcRefund } from '@/server/orders/woocommerce/wc-schema';
import { codeSamples } from './code-samples';
import { ZListEventsQuery } from './events';
import { ZArchiveQuery, ZSalesRegisterQuery } from './exports';
import { ZDocumentId, ZInvoiceId, ZListInvoicesQuery } from './invoices';
import {
  ACCOUNT_EXAMPLE,
  CORRECTION_ACCEPTED,
  CORRECTION_PENDING,
  ENDPOINT_ID,
  EVENT_EXAMPLE,
  EXPORT_PERIOD,
  exampleDocUrl,
  INVOICE_ACCEPTED,
  INVOICE_ID,
  INVOICE_PENDING,
  INVOICE_RETRIED,
  INVOICE_WITH_CORRECTION,
  list,
  ORDER_EXAMPLE,
  RETRIED_ID,
  REFUND_EXAMPLE,
  WEBHOOK_ENDPOINT,
  WEBHOOK_ENDPOINT_CREATED,
  WEBHOOK_ENDPOINT_DELETED,
  WEBHOOK_ENDPOINT_EXAMPLE,
} from './openapi-examples';
import {
  errorEnvelope,
  listOf,
  ZAccount,
  ZCorrection,
  ZDeletedWebhookEndpoint,
  ZDocument,
  ZEvent,
  ZInvoice,
  ZWebhookEndpoint,
  ZWebhookEndpointWithSecret,
} from './schemas';
import { ZEndpointId, ZListWebhookEndpointsQuery } from './webhook-endpoints';

/**
 * OpenAPI 3.1 of /v1, generated from the zod schemas the handlers parse with (query, path, bodies) and the
 * response schemas of spec 2 (./schemas.ts), with zod's own JSON Schema output (draft 2020-12, OpenAPI 3.1's
 * dialect). Served at GET /openapi.json; a test checks that every route under app/v1 is described here and
 * validates real answers against it.
 */
type Json = { status: number; description: string; schema: z.ZodType; example: unknown };
/** A file download; one status may come in several types (a `format` parameter chooses). */
type Raw = { status: number; description: string; contentType: string | readonly string[] };

/** What the examples send: path and query parameters, the body and the Idempotency-Key of a POST. */
export type RequestExample = { path?: Record<string, string>; query?: Record<string, string | number>; body?: unknown; idempotencyKey?: string };

export type Operation = {
  method: 'get' | 'post' | 'delete';
  path: string;
  operationId: string;
  summary: string;
  tag: 'Invoices' | 'Account' | 'Webhook endpoints' | 'Events' | 'Exports';
  pathParams?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  idempotent?: boolean;
  responses: (Json | Raw)[];
  /** Error codes this operation can answer, besides the ones every operation can (COMMON_ERRORS). */
  errors: ErrorCode[];
  example: RequestExample;
  /** The SDK's method for the operation (`sdk/src/client.ts`) and a name for what it answers, for the code samples. */
  sdk: { method: string; result: string };
};

const COMMON_ERRORS: ErrorCode[] = ['api_key_missing', 'api_key_invalid', 'live_mode_disabled', 'rate_limited', 'internal_error'];
const BODY_ERRORS: ErrorCode[] = [
  'body_invalid_json',
  'body_too_large',
  'parameter_missing',
  'parameter_invalid',
  'idempotency_key_invalid',
  'idempotency_key_reused',
];
const ORDER_ERRORS: ErrorCode[] = [
  'buyer_nip_missing',
  'buyer_nip_invalid',
  'order_not_paid',
  'order_cancelled',
  'currency_not_supported',
  'vat_rate_missing',
  'vat_rate_unsupported',
  'order_unprocessable',
];

const documentPath = z.object({ id: ZDocumentId.describe('`inv_…` or `cor_…`') });

const ZCreateInvoiceBody = z.union([
  z.object({ order: ZOrderInput }).meta({ title: 'order', description: 'an order in this API’s format (spec 2.4)' }),
  z.object({ shopplatform_order: ZWcOrder }).meta({ title: 'shopplatform_order', description: 'a shop-platform REST v3 order' }),
]);
const ZCreateCorrectionBody = z.union([
  z.object({ refund: ZRefundInput }).meta({ title: 'refund', description: 'a refund in this API’s format (spec 2.5)' }),
  z
    .object({ shopplatform_order: ZWcOrder, shopplatform_refund: ZWcRefund })
    .meta({ title: 'shopplatform_order + shopplatform_refund', description: 'the shop-platform order and its v3 refund' }),
]);

export const OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/v1/invoices',
    operationId: 'listInvoices',
    summary: 'List invoices, newest first (corrections inside each invoice)',
    tag: 'Invoices',
    query: ZListInvoicesQuery,
    responses: [
      { status: 200, description: 'A page of invoices', schema: listOf(ZInvoice, '/v1/invoices'), example: list('/v1/invoices', [INVOICE_WITH_CORRECTION]) },
    ],
    errors: ['parameter_invalid', 'resource_missing'],
    example: { query: { external_id: ORDER_EXAMPLE.external_id, limit: 10 } },
    sdk: { method: 'invoices.list', result: 'page' },
  },
  {
    method: 'post',
    path: '/v1/invoices',
    operationId: 'createInvoice',
    summary: 'Create an invoice from a paid order; answers at once with a pending invoice',
    tag: 'Invoices',
    body: ZCreateInvoiceBody,
    idempotent: true,
    responses: [
      { status: 201, description: 'Created (status pending)', schema: ZInvoice, example: INVOICE_PENDING },
      { status: 200, description: 'The invoice of this order already exists, or an Idempotency-Key replay', schema: ZInvoice, example: INVOICE_ACCEPTED },
    ],
    errors: [...BODY_ERRORS, ...ORDER_ERRORS],
    example: { body: { order: ORDER_EXAMPLE }, idempotencyKey: `invoice-${ORDER_EXAMPLE.external_id}` },
    sdk: { method: 'invoices.create', result: 'invoice' },
  },
  {
    method: 'get',
    path: '/v1/invoices/{id}',
    operationId: 'retrieveInvoice',
    summary: 'Retrieve an invoice or a correction',
    tag: 'Invoices',
    pathParams: documentPath,
    responses: [{ status: 200, description: 'The document', schema: ZDocument, example: INVOICE_WITH_CORRECTION }],
    errors: ['parameter_invalid', 'resource_missing'],
    example: { path: { id: INVOICE_ID } },
    sdk: { method: 'invoices.retrieve', result: 'document' },
  },
  {
    method: 'get',
    path: '/v1/invoices/{id}/pdf',
    operationId: 'downloadInvoicePdf',
    summary: 'Download the PDF (attachment)',
    tag: 'Invoices',
    pathParams: documentPath,
    responses: [{ status: 200, description: 'The PDF', contentType: 'application/pdf' }],
    errors: ['parameter_invalid', 'resource_missing', 'pdf_not_ready'],
    example: { path: { id: INVOICE_ID } },
    sdk: { method: 'invoices.pdf', result: 'pdf' },
  },
  {
    method: 'get',
    path: '/v1/invoices/{id}/xml',
    operationId: 'downloadInvoiceXml',
    summary: 'Download the FA(3) XML exactly as sent to KSeF (beyond the spec)',
    tag: 'Invoices',
    pathParams: documentPath,
    responses: [{ status: 200, description: 'FA(3) XML', contentType: 'application/xml' }],
    errors: ['parameter_invalid', 'resource_missing', 'xml_not_ready'],
    example: { path: { id: INVOICE_ID } },
    sdk: { method: 'invoices.xml', result: 'xml' },
  },
  {
    method: 'get',
    path: '/v1/invoices/{id}/upo',
    operationId: 'downloadInvoiceUpo',
    summary: "Download KSeF's UPO of an accepted document (beyond the spec)",
    tag: 'Invoices',
    pathParams: documentPath,
    responses: [{ status: 200, description: 'UPO XML', contentType: 'application/xml' }],
    errors: ['parameter_invalid', 'resource_missing', 'upo_not_ready'],
    example: { path: { id: INVOICE_ID } },
    sdk: { method: 'invoices.upo', result: 'upo' },
  },
  {
    method: 'post',
    path: '/v1/invoices/{id}/corrections',
    operationId: 'createCorrection',
    summary: 'Create a correction (KOR) of an invoice from a refund',
    tag: 'Invoices',
    pathParams: z.object({ id: ZInvoiceId.describe('`inv_…` of the corrected invoice') }),
    body: ZCreateCorrectionBody,
    idempotent: true,
    responses: [
      { status: 201, description: 'Created (status pending)', schema: ZCorrection, example: CORRECTION_PENDING },
      {
        status: 200,
        description: 'The correction of this refund already exists, or an Idempotency-Key replay',
        schema: ZCorrection,
        example: CORRECTION_ACCEPTED,
      },
    ],
    errors: [...BODY_ERRORS, ...ORDER_ERRORS, 'resource_missing', 'correction_requires_invoice', 'livemode_mismatch'],
    example: { path: { id: INVOICE_ID }, body: { refund: REFUND_EXAMPLE }, idempotencyKey: `correction-${REFUND_EXAMPLE.external_id}` },
    sdk: { method: 'invoices.createCorrection', result: 'correction' },
  },
  {
    method: 'post',
    path: '/v1/invoices/{id}/retry',
    operationId: 'retryInvoice',
    summary:
      'Retry a document that ended in `error`, or `skipped` for `seller_not_configured` or `original_not_invoiced`, once the cause is fixed (beyond the spec). No body. A document without a number goes back to `pending` (every check runs again before it is numbered); a numbered one keeps its number and goes back to `queued`.',
    tag: 'Invoices',
    pathParams: documentPath,
    idempotent: true,
    responses: [{ status: 200, description: 'The document, now `pending` or `queued`', schema: ZDocument, example: INVOICE_RETRIED }],
    errors: ['parameter_invalid', 'idempotency_key_invalid', 'idempotency_key_reused', 'resource_missing', 'document_not_retryable'],
    example: { path: { id: RETRIED_ID }, idempotencyKey: `retry-${RETRIED_ID}` },
    sdk: { method: 'invoices.retry', result: 'document' },
  },
  {
    method: 'get',
    path: '/v1/account',
    operationId: 'retrieveAccount',
    summary: 'Retrieve the account of the key, in the key’s mode',
    tag: 'Account',
    responses: [{ status: 200, description: 'The account', schema: ZAccount, example: ACCOUNT_EXAMPLE }],
    errors: [],
    example: {},
    sdk: { method: 'account.retrieve', result: 'account' },
  },
  {
    method: 'get',
    path: '/v1/webhook_endpoints',
    operationId: 'listWebhookEndpoints',
    summary: 'List webhook endpoints, newest first',
    tag: 'Webhook endpoints',
    query: ZListWebhookEndpointsQuery,
    responses: [
      {
        status: 200,
        description: 'A page of endpoints',
        schema: listOf(ZWebhookEndpoint, '/v1/webhook_endpoints'),
        example: list('/v1/webhook_endpoints', [WEBHOOK_ENDPOINT]),
      },
    ],
    errors: ['parameter_invalid', 'resource_missing'],
    example: { query: { limit: 10 } },
    sdk: { method: 'webhookEndpoints.list', result: 'page' },
  },
  {
    method: 'post',
    path: '/v1/webhook_endpoints',
    operationId: 'createWebhookEndpoint',
    summary: 'Create a webhook endpoint; the answer is the only one with its secret',
    tag: 'Webhook endpoints',
    body: ZCreateWebhookEndpoint,
    idempotent: true,
    responses: [{ status: 201, description: 'Created', schema: ZWebhookEndpointWithSecret, example: WEBHOOK_ENDPOINT_CREATED }],
    errors: [...BODY_ERRORS, 'url_not_public', 'webhook_endpoint_limit'],
    example: { body: WEBHOOK_ENDPOINT_EXAMPLE, idempotencyKey: 'webhook-endpoint-sklep-1' },
    sdk: { method: 'webhookEndpoints.create', result: 'endpoint' },
  },
  {
    method: 'get',
    path: '/v1/webhook_endpoints/{id}',
    operationId: 'retrieveWebhookEndpoint',
    summary: 'Retrieve a webhook endpoint',
    tag: 'Webhook endpoints',
    pathParams: z.object({ id: ZEndpointId }),
    responses: [{ status: 200, description: 'The endpoint', schema: ZWebhookEndpoint, example: WEBHOOK_ENDPOINT }],
    errors: ['parameter_invalid', 'resource_missing'],
    example: { path: { id: ENDPOINT_ID } },
    sdk: { method: 'webhookEndpoints.retrieve', result: 'endpoint' },
  },
  {
    method: 'delete',
    path: '/v1/webhook_endpoints/{id}',
    operationId: 'deleteWebhookEndpoint',
    summary: 'Disable a webhook endpoint (queued deliveries are dropped)',
    tag: 'Webhook endpoints',
    pathParams: z.object({ id: ZEndpointId }),
    responses: [{ status: 200, description: 'Deleted', schema: ZDeletedWebhookEndpoint, example: WEBHOOK_ENDPOINT_DELETED }],
    errors: ['parameter_invalid', 'resource_missing'],
    example: { path: { id: ENDPOINT_ID } },
    sdk: { method: 'webhookEndpoints.delete', result: 'deleted' },
  },
  {
    method: 'get',
    path: '/v1/events',
    operationId: 'listEvents',
    summary: 'List events of the key’s mode, newest first',
    tag: 'Events',
    query: ZListEventsQuery,
    responses: [{ status: 200, description: 'A page of events', schema: listOf(ZEvent, '/v1/events'), example: list('/v1/events', [EVENT_EXAMPLE]) }],
    errors: ['parameter_invalid', 'resource_missing'],
    example: { query: { type: 'invoice.accepted', limit: 10 } },
    sdk: { method: 'events.list', result: 'page' },
  },
  {
    method: 'get',
    path: '/v1/exports/sales-register',
    operationId: 'exportSalesRegister',
    summary:
      'The sales register of a Warsaw month (beyond the spec): every invoice and correction KSeF numbered or that was handed over offline, ' +
      'per VAT rate in the document currency and PLN, with its KSeF number or JPK_V7(3) marker (DI: offline, not yet numbered)',
    tag: 'Exports',
    query: ZSalesRegisterQuery,
    responses: [{ status: 200, description: 'The register (attachment), streamed', contentType: ['text/csv', 'application/xml'] }],
    errors: ['parameter_missing', 'parameter_invalid'],
    example: { query: { period: EXPORT_PERIOD, format: 'csv' } },
    sdk: { method: 'exports.salesRegister', result: 'register' },
  },
  {
    method: 'get',
    path: '/v1/exports/archive',
    operationId: 'exportMonthlyArchive',
    summary:
      'One ZIP of a Warsaw month (beyond the spec): per document its FA(3) XML, UPO and PDF named by number, the register, ' +
      'and manifest.csv listing UPOs and PDFs not there yet; streamed',
    tag: 'Exports',
    query: ZArchiveQuery,
    responses: [{ status: 200, description: 'The archive (attachment), streamed', contentType: 'application/zip' }],
    errors: ['parameter_missing', 'parameter_invalid'],
    example: { query: { period: EXPORT_PERIOD } },
    sdk: { method: 'exports.archive', result: 'archive' },
  },
];

type JsonSchema = Record<string, unknown>;

/** zod → JSON Schema with named schemas moved to components (their `$defs` refs rewritten). */
function converter() {
  const components: Record<string, JsonSchema> = {};
  const toComponents = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(toComponents);
    if (value && typeof value === 'object') {
      const out: JsonSchema = {};
      for (const [k, v] of Object.entries(value)) {
        if (k === '$ref' && typeof v === 'string') out[k] = v.replace('#/$defs/', '#/components/schemas/');
        else if (k !== '$defs' && k !== '$schema') out[k] = toComponents(v);
      }
      return out;
    }
    return value;
  };
  const convert = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    for (const [name, def] of Object.entries((json.$defs ?? {}) as Record<string, JsonSchema>)) components[name] = toComponents(def) as JsonSchema;
    const id = z.globalRegistry.get(schema)?.id;
    if (id) {
      // zod puts a named root either in $defs (then the root is a $ref to it) or at the root itself
      if (!(id in ((json.$defs ?? {}) as object))) components[id] = toComponents(json) as JsonSchema;
      return { $ref: `#/components/schemas/${id}` };
    }
    return toComponents(json) as JsonSchema;
  };
  return { components, convert };
}

/** The first code a status lists, as the server answers it (message and doc_url from the errors table). */
const errorExample = (code: ErrorCode) => ({ error: { type: ERRORS[code].type, code, message: ERRORS[code].message, doc_url: exampleDocUrl(code) } });

const header = (description: string, schema: JsonSchema = { type: 'string' }) => ({ description, schema });
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};
const COMMON_HEADERS = { 'Request-Id': { $ref: '#/components/headers/Request-Id' }, ...RATE_LIMIT_HEADERS };

type Convert = ReturnType<typeof converter>['convert'];

/** An operation's path and query parameters (with their examples), and the Idempotency-Key header where it takes one. */
function operationParameters(op: Operation, convert: Convert): unknown[] {
  const parameters: unknown[] = [];
  for (const [where, obj] of [
    ['path', op.pathParams],
    ['query', op.query],
  ] as const) {
    if (!obj) continue;
    const json = convert(obj, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = schema as { description?: string };
      const example = op.example[where]?.[name];
      parameters.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        schema: rest,
        ...(description && { description }),
        ...(example !== undefined && { example }),
      });
    }
  }
  if (op.idempotent) parameters.push({ $ref: '#/components/parameters/Idempotency-Key' });
  return parameters;
}

/** An operation's answers by status: its own, then one per error status with the error codes it may carry. */
function operationResponses(op: Operation, convert: Convert): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const r of op.responses) {
    const content =
      'schema' in r
        ? { 'application/json': { schema: convert(r.schema, 'output'), example: r.example } }
        : Object.fromEntries([r.contentType].flat().map((type) => [type, { schema: { type: 'string', format: 'binary' } }]));
    responses[String(r.status)] = {
      description: r.description,
      headers: { ...COMMON_HEADERS, ...('contentType' in r && { 'Content-Disposition': header('`attachment; filename="…"`') }) },
      content,
    };
  }
  const codes = [...new Set([...op.errors, ...COMMON_ERRORS, 'method_not_allowed' as const])];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERRORS[code].status;
    if (status !== null) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `Error: ${list.map((c) => `\`${c}\``).join(', ')}`,
      headers: {
        ...COMMON_HEADERS,
        ...(status === 429 && { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }),
        ...(status === 405 && { Allow: header('the methods the endpoint takes') }),
      },
      content: { 'application/json': { schema: convert(errorEnvelope(list), 'output'), example: errorExample(list[0]!) } },
    };
  }
  return responses;
}

export function buildOpenApiDocument(serverUrl = '/'): JsonSchema {
  const { components, convert } = converter();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    // converted in this order, which is the order of components.schemas
    const parameters = operationParameters(op, convert);
    const responses = operationResponses(op, convert);
    (paths[op.path] ??= {})[op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      tags: [op.tag],
      ...(parameters.length && { parameters }),
      ...(op.body && { requestBody: { required: true, content: { 'application/json': { schema: convert(op.body, 'input'), example: op.example.body } } } }),
      responses,
      'x-codeSamples': codeSamples(op, serverUrl),
    };
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'KSeF Relay API',
      version: 'v1',
      description:
        'Polish e-invoices (FA(3)) sent to KSeF 2.0 from paid web-shop orders. Every error links its code to the errors page (`doc_url`). ' +
        'Lists are newest first and page with `limit` and `starting_after`. POST requests take an `Idempotency-Key`.',
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    tags: [{ name: 'Invoices' }, { name: 'Account' }, { name: 'Webhook endpoints' }, { name: 'Events' }, { name: 'Exports' }],
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: '`sk_test_…` or `sk_live_…`; the key decides the mode' } },
      parameters: {
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Answers below 500 are kept 24 hours and replayed for the same key, method, path and body; another request under the key is 409.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      headers: {
        'Request-Id': header('`req_…`, on every answer; quote it to support'),
        'RateLimit-Limit': header(`requests per minute per key (${REQUESTS_PER_MINUTE})`, { type: 'string', pattern: '^\\d+$' }),
        'RateLimit-Remaining': header('requests left in the window', { type: 'string', pattern: '^\\d+$' }),
        'RateLimit-Reset': header('seconds until the window resets', { type: 'string', pattern: '^\\d+$' }),
        'Retry-After': header('seconds to wait before retrying', { type: 'string', pattern: '^\\d+$' }),
      },
      schemas: components,
    },
  };
}

const built = new Map<string, JsonSchema>();

/** The document for a server URL, built once per process (it only changes with the code). */
export function openApiDocument(serverUrl: string): JsonSchema {
  let doc = built.get(serverUrl);
  if (!doc) built.set(serverUrl, (doc = buildOpenApiDocument(serverUrl)));
  return doc;
}
