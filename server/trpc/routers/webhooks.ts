import { z } from 'zod';
import { createWebhookEndpoint, ZCreateWebhookEndpoint } from '@/server/webhooks/create-webhook-endpoint';
import { disableWebhookEndpoint } from '@/server/webhooks/disable-webhook-endpoint';
import { getWebhookEndpoint } from '@/server/webhooks/get-webhook-endpoint';
import { listDeliveries } from '@/server/webhooks/list-deliveries';
import { listWebhookEndpoints } from '@/server/webhooks/list-webhook-endpoints';
import { resendEvent } from '@/server/webhooks/resend-event';
import { sendTestEvent } from '@/server/webhooks/send-test-event';
import { serializeWebhookEndpoint } from '@/server/webhooks/serialize-webhook-endpoint';
import { zId } from '@/server/ids';
import { router, ownerProcedure } from '@/server/trpc/init';

const ZEndpointId = z.object({ id: zId('we') });

export const webhooksRouter = router({
  list: ownerProcedure.query(async ({ ctx }) => {
    const page = await listWebhookEndpoints(ctx.db, ctx.scope, { limit: 100 });
    return page.data.map(serializeWebhookEndpoint);
  }),
  get: ownerProcedure.input(ZEndpointId).query(async ({ ctx, input }) => serializeWebhookEndpoint(await getWebhookEndpoint(ctx.db, ctx.scope, input.id))),
  /** The answer carries the secret: the only time it is shown. */
  create: ownerProcedure.input(ZCreateWebhookEndpoint).mutation(({ ctx, input }) => createWebhookEndpoint(ctx.db, ctx.scope, input)),
  delete: ownerProcedure.input(ZEndpointId).mutation(({ ctx, input }) => disableWebhookEndpoint(ctx.db, ctx.scope, input.id)),
  deliveries: ownerProcedure
    .input(z.object({ endpointId: z.string(), beforeId: z.number().int().optional() }))
    .query(({ ctx, input }) => listDeliveries(ctx.db, ctx.scope, { endpointId: input.endpointId, limit: 50, beforeId: input.beforeId })),
  /** Owner-only: signs and sends a `webhook_endpoint.test` event now and answers with what the receiver did. */
  sendTest: ownerProcedure.input(ZEndpointId).mutation(({ ctx, input }) => sendTestEvent(ctx.db, ctx.scope, input.id)),
  resend: ownerProcedure
    .input(z.object({ eventId: z.string(), endpointId: z.string() }))
    .mutation(({ ctx, input }) => resendEvent(ctx.db, ctx.scope, input.eventId, input.endpointId)),
});
