import { describe, expectTypeOf, test } from 'vitest';
import type { z } from 'zod';
import type { ZListEventsQuery } from '@/server/api/events';
import type { ZListInvoicesQuery } from '@/server/api/invoices';
import type {
  ZAccount,
  ZCorrection,
  ZDeletedWebhookEndpoint,
  ZDocument,
  ZErrorObject,
  ZEvent,
  ZInvoice,
  ZWebhookEndpoint,
  ZWebhookEndpointWithSecret,
} from '@/server/api/schemas';
import type { ZListWebhookEndpointsQuery } from '@/server/api/webhook-endpoints';
import type { DocumentStatus as ServerDocumentStatus } from '@/server/db/schema';
import type { ERRORS } from '@/server/facts/error-codes';
import type { EventType as ServerEventType } from '@/server/facts/event-types';
import type { ZOrderInput, ZRefundInput } from '@/server/orders/order-schema';
import type { ZCreateWebhookEndpoint } from '@/server/webhooks/create-webhook-endpoint';
import type * as Sdk from './types';

/**
 * The SDK's hand-written types (no dependencies) against the zod schemas the server parses and answers with.
 * These are compile-time checks: `npm run typecheck` (tsc over the whole tree, part of `npm test`) fails when
 * a field, its type or whether it is optional drifts; at run time the assertions do nothing.
 */

/** Every field path of a type, `?` marking the optional ones: `buyer.nip`, `lines.discount?`, … */
type Shape<T> = T extends readonly (infer Item)[]
  ? Shape<Item>
  : T extends object
    ? { [K in keyof T & string]-?: `${K}${undefined extends T[K] ? '?' : ''}` | `${K}.${Shape<NonNullable<T[K]>>}` }[keyof T & string]
    : never;

type Codes = keyof typeof ERRORS;
type CodeWithStatus<S> = {
  [C in Codes]: (typeof ERRORS)[C] extends { status: S; surface?: never } ? ((typeof ERRORS)[C] extends { surface: string } ? never : C) : never;
}[Codes];

describe('sdk/src/types.ts matches the server', () => {
  test('answers: the objects of spec 2 as the server serializes them', () => {
    expectTypeOf<Sdk.Invoice>().branded.toEqualTypeOf<z.output<typeof ZInvoice>>();
    expectTypeOf<Sdk.Correction>().branded.toEqualTypeOf<z.output<typeof ZCorrection>>();
    expectTypeOf<Sdk.Document>().branded.toEqualTypeOf<z.output<typeof ZDocument>>();
    expectTypeOf<Sdk.ApiErrorObject>().branded.toEqualTypeOf<z.output<typeof ZErrorObject>>();
    expectTypeOf<Sdk.Account>().branded.toEqualTypeOf<z.output<typeof ZAccount>>();
    expectTypeOf<Sdk.WebhookEndpoint>().branded.toEqualTypeOf<z.output<typeof ZWebhookEndpoint>>();
    expectTypeOf<Sdk.WebhookEndpointWithSecret>().branded.toEqualTypeOf<z.output<typeof ZWebhookEndpointWithSecret>>();
    expectTypeOf<Sdk.DeletedWebhookEndpoint>().branded.toEqualTypeOf<z.output<typeof ZDeletedWebhookEndpoint>>();
    expectTypeOf<Sdk.Event>().branded.toEqualTypeOf<z.output<typeof ZEvent>>();
  });

  test('enumerations: statuses, event types, error types and codes', () => {
    expectTypeOf<Sdk.DocumentStatus>().toEqualTypeOf<ServerDocumentStatus>();
    expectTypeOf<Sdk.EventType>().toEqualTypeOf<ServerEventType>();
    expectTypeOf<Sdk.ErrorType>().toEqualTypeOf<(typeof ERRORS)[Codes]['type']>();
    expectTypeOf<Sdk.RequestErrorCode>().toEqualTypeOf<CodeWithStatus<number>>();
    expectTypeOf<Sdk.DocumentErrorCode>().toEqualTypeOf<CodeWithStatus<null>>();
  });

  test('requests: what the SDK sends is what the server parses (same fields and optionality; the SDK may narrow a type)', () => {
    expectTypeOf<Sdk.OrderInput>().toExtend<z.input<typeof ZOrderInput>>();
    expectTypeOf<Shape<Sdk.OrderInput>>().toEqualTypeOf<Shape<z.input<typeof ZOrderInput>>>();
    expectTypeOf<Sdk.RefundInput>().toExtend<z.input<typeof ZRefundInput>>();
    expectTypeOf<Shape<Sdk.RefundInput>>().toEqualTypeOf<Shape<z.input<typeof ZRefundInput>>>();
    expectTypeOf<Sdk.CreateWebhookEndpointParams>().toEqualTypeOf<z.input<typeof ZCreateWebhookEndpoint>>();
    expectTypeOf<Shape<Sdk.ListInvoicesParams>>().toEqualTypeOf<Shape<z.input<typeof ZListInvoicesQuery>>>();
    expectTypeOf<Shape<Sdk.ListEventsParams>>().toEqualTypeOf<Shape<z.input<typeof ZListEventsQuery>>>();
    expectTypeOf<Shape<Sdk.ListParams>>().toEqualTypeOf<Shape<z.input<typeof ZListWebhookEndpointsQuery>>>();
    expectTypeOf<NonNullable<Sdk.ListEventsParams['type']>>().toEqualTypeOf<NonNullable<z.input<typeof ZListEventsQuery>['type']>>();
  });
});
