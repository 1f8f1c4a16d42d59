import { z } from 'zod';
import type { Endpoint } from '../http/route';
import { parseParams, queryObject } from '../http/validate';
import { createWebhookEndpoint as createEndpoint, ZCreateWebhookEndpoint, type CreateWebhookEndpointInput } from '../webhooks/create-webhook-endpoint';
import { disableWebhookEndpoint } from '../webhooks/disable-webhook-endpoint';
import { getWebhookEndpoint } from '../webhooks/get-webhook-endpoint';
import { listWebhookEndpoints as listScopeEndpoints } from '../webhooks/list-webhook-endpoints';
import { serializeWebhookEndpoint } from '../webhooks/serialize-webhook-endpoint';

const ZEndpointId = z.string().regex(/^we_[0-9A-Za-z]{1,64}$/, 'must be a we_ id');

const ZListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  starting_after: z.string().min(1).optional(),
});

/** POST /v1/webhook_endpoints (spec 4.8): the only answer that carries the secret. */
export const createWebhookEndpoint: Endpoint<CreateWebhookEndpointInput> = {
  input: ({ body }) => parseParams(ZCreateWebhookEndpoint, body),
  idempotent: {},
  handle: async ({ db, scope, input }) => ({ status: 201, body: await createEndpoint(db, scope, input) }),
};

export const listWebhookEndpoints: Endpoint<z.infer<typeof ZListQuery>> = {
  input: ({ url }) => parseParams(ZListQuery, queryObject(url)),
  handle: async ({ db, scope, input }) => {
    const page = await listScopeEndpoints(db, scope, { limit: input.limit, startingAfter: input.starting_after });
    return { status: 200, body: { object: 'list', url: '/v1/webhook_endpoints', has_more: page.hasMore, data: page.endpoints.map(serializeWebhookEndpoint) } };
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
