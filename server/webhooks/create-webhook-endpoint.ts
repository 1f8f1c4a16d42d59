import { and, count, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { accountModes, webhookEndpoints } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { EVENT_TYPES } from '@/server/facts/event-types';
import { newId } from '@/server/ids';
import { checkEndpointUrl, resolveHost, type ResolveHost } from './endpoint-url';
import { serializeWebhookEndpoint } from './serialize-webhook-endpoint';
import { newWebhookSecret, sealWebhookSecret } from './webhook-secret';

/** Spec 8: enabled endpoints per account and mode; disabled ones do not count. */
export const MAX_ACTIVE_ENDPOINTS = 16;

export const ZCreateWebhookEndpoint = z.object({
  url: z.string().min(1).max(2048),
  enabled_events: z
    .array(z.enum([...EVENT_TYPES, '*']))
    .min(1)
    .transform((events) => [...new Set(events)]),
  description: z.string().max(500).nullish(),
});
export type CreateWebhookEndpointInput = z.infer<typeof ZCreateWebhookEndpoint>;

/**
 * Registers a receiver (spec 4.8) and returns it with its secret, the only time the secret leaves the service;
 * the stored copy is sealed. The scope's account_modes row is locked while counting, so concurrent creations
 * cannot pass the limit together.
 */
export async function createWebhookEndpoint(db: Db, scope: Scope, input: CreateWebhookEndpointInput, resolve: ResolveHost = resolveHost) {
  const url = await checkEndpointUrl(input.url, scope.mode, resolve);
  const secret = newWebhookSecret();
  const row = await db.transaction(async (tx) => {
    await tx.select({ id: accountModes.accountId }).from(accountModes).where(inScope(accountModes, scope)).for('update');
    const [active] = await tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(and(inScope(webhookEndpoints, scope), eq(webhookEndpoints.status, 'enabled')));
    if ((active?.n ?? 0) >= MAX_ACTIVE_ENDPOINTS) throw new AppError('webhook_endpoint_limit');
    const [inserted] = await tx
      .insert(webhookEndpoints)
      .values({
        id: newId('we'),
        accountId: scope.accountId,
        mode: scope.mode,
        url: url.href,
        enabledEvents: input.enabled_events,
        description: input.description ?? null,
        secret: sealWebhookSecret(secret),
      })
      .returning();
    return inserted!;
  });
  return { ...serializeWebhookEndpoint(row), secret };
}
