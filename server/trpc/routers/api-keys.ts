import { z } from 'zod';
import { createApiKey } from '@/server/api-keys/api-keys';
import { listApiKeys } from '@/server/api-keys/list-api-keys';
import { revokeApiKey } from '@/server/api-keys/revoke-api-key';
import { router, ownerProcedure } from '@/server/trpc/init';

export const apiKeysRouter = router({
  list: ownerProcedure.query(({ ctx }) => listApiKeys(ctx.db, ctx.scope)),
  /** The whole key is in this answer only; the service keeps its hash. */
  create: ownerProcedure.mutation(({ ctx }) => createApiKey(ctx.db, ctx.scope.accountId, ctx.scope.mode)),
  revoke: ownerProcedure.input(z.object({ id: z.string() })).mutation(({ ctx, input }) => revokeApiKey(ctx.db, ctx.scope, input.id)),
});
