import 'server-only';
import { z } from 'zod';
import { zId } from '@/server/ids';
import { listEnvelope, ZListQuery } from '@/server/http/list';
import type { Endpoint } from '@/server/http/route';
import { parseParams, queryObject } from '@/server/http/validate';
import { createWebhookEndpoint as createEndpoint, ZCreateWebhookEndpoint, type CreateWebhookEndpointInput } from '@/server/webhooks/create-webhook-endpoint';
import { disableWebhookEndpoint } from '@/server/webhooks/disable-webhook-endpoint';
import { getWebhookEndpoint } from '@/server/webhooks/get-webhook-endpoint';
import { listWebhookEndpoints as listScopeEndpoints } from '@/server/webhooks/list-webhook-endpoints';
import { serializeWebhookEndpoint } from '@/server/webhooks/serialize-webhook-endpoint';

export const ZEndpointId = zId('we');
export const ZListWebhookEndpointsQuery = ZListQuery;

/** POST /v1/webhook_endpoints (spec 4.8): the only answer that carries the secret. */
export const createWebhookEndpoint: Endpoint<CreateWebhookEndpointInput> = {
  input: ({ body }) => parseParams(ZCreateWebhookEndpoint, body),
  idempotent: {},
  handle: async ({ db, scope, input }) => ({ status: 201, body: await createEndpoint(db, scope, input) }),
};

export const listWebhookEndpoints: Endpoint<z.infer<typeof ZListWebhookEndpointsQuery>> = {
  input: ({ url }) => parseParams(ZListWebhookEndpointsQuery, queryObject(url)),
  handle: async ({ db, scope, input }) => {
    const page = await listScopeEndpoints(db, scope, { limit: input.limit, startingAfter: input.starting_after });
    return { status: 200, body: listEnvelope('/v1/webhook_endpoints', page, serializeWebhookEndpoint) };
  },
};

export const retrieveWebhookEndpoint: Endpoint<{ id: string }> = {
  input: ({ params }) => ({ id: parseParams(ZEndpointId, params.id, ['id']) }),
  handle: async ({ db, scope, input }) => ({ status: 200, body: serializeWebhookEndpoint(await getWebhookEndpoint(db, scope, input.id)) }),
};

/** DELETE (spec 4.10) disables; the answer is the delete result of spec 2.10. */
export const deleteWebhookEndpoint: Endpoint<{ id: string }> = {
  input: ({ params }) => ({ id: parseParams(ZEndpointId, params.id, ['id']) }),
  handle: async ({ db, scope, input }) => ({ status: 200, body: await disableWebhookEndpoint(db, scope, input.id) }),
};
