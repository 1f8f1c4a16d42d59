import { z } from 'zod';
import { connectStore } from '@/server/stores/connect';
import { disconnectStore } from '@/server/stores/disconnect';
import { getStoreStatus } from '@/server/stores/store-status';
import { updateStoreSettings, ZStoreSettings } from '@/server/stores/settings';
import { syncStore } from '@/server/stores/sync';
import { router, ownerProcedure } from '@/server/trpc/init';
import { AppError } from '@/server/errors';

const ZStoreId = z.object({ id: z.string().regex(/^st_[0-9A-Za-z]{1,64}$/) });

export const storesRouter = router({
  status: ownerProcedure.query(({ ctx }) => getStoreStatus(ctx.db, ctx.scope)),
  connect: ownerProcedure
    .input(
      z.object({
        url: z.string().max(2000),
        consumerKey: z.string().max(200),
        consumerSecret: z.string().max(200),
        /** Warsaw date YYYY-MM-DD; left out: only orders placed after connecting are invoiced. */
        since: z.string().max(10).optional(),
      }),
    )
    .mutation(({ ctx, input: { since, ...input } }) => connectStore(ctx.db, ctx.scope, input, { since })),
  settings: ownerProcedure
    .input(ZStoreId.extend(ZStoreSettings.shape))
    .mutation(({ ctx, input: { id, ...settings } }) => updateStoreSettings(ctx.db, ctx.scope, id, settings)),
  disconnect: ownerProcedure.input(ZStoreId).mutation(({ ctx, input }) => disconnectStore(ctx.db, input.id, ctx.scope)),
  sync: ownerProcedure.input(ZStoreId).mutation(async ({ ctx, input }) => {
    const status = await getStoreStatus(ctx.db, ctx.scope);
    if (status?.id !== input.id) throw new AppError('resource_missing', 'store', `No such store: ${input.id}.`);
    return syncStore(ctx.db, input.id);
  }),
});
