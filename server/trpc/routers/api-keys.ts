import { z } from 'zod';
import { createApiKey, ZApiKeyName } from '@/server/api-keys/api-keys';
import { listApiKeys } from '@/server/api-keys/list-api-keys';
import { renameApiKey } from '@/server/api-keys/rename-api-key';
import { revokeApiKey } from '@/server/api-keys/revoke-api-key';
import { router, ownerProcedure } from '@/server/trpc/init';

export const apiKeysRouter = router({
  list: ownerProcedure.query(({ ctx }) => listApiKeys(ctx.db, ctx.scope)),
  /** The whole key is in this answer only; the service keeps its hash. Owner-only, as are rename and revoke. */
  create: ownerProcedure
    .input(z.object({ name: ZApiKeyName.optional() }).optional())
    .mutation(({ ctx, input }) => createApiKey(ctx.db, ctx.scope.accountId, ctx.scope.mode, input?.name ?? null)),
  rename: ownerProcedure
    .input(z.object({ id: z.string(), name: ZApiKeyName.nullable() }))
    .mutation(({ ctx, input }) => renameApiKey(ctx.db, ctx.scope, input.id, input.name)),
  revoke: ownerProcedure.input(z.object({ id: z.string() })).mutation(({ ctx, input }) => revokeApiKey(ctx.db, ctx.scope, input.id)),
});
