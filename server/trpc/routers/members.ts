import { z } from 'zod';
import { createInvite, listInvites, revokeInvite, ZInvite } from '@/server/accounts/invites';
import { listMembers, updateMember } from '@/server/accounts/members';
import { MEMBER_ROLES } from '@/server/db/schema';
import { zId } from '@/server/ids';
import { ownerProcedure, router } from '@/server/trpc/init';

const ZUserId = z.object({ userId: zId('usr') });

/** The members page (owners only): the account's members and open invitations; one owner always stays. */
export const membersRouter = router({
  list: ownerProcedure.query(async ({ ctx }) => ({
    members: await listMembers(ctx.db, ctx.scope.accountId),
    invites: await listInvites(ctx.db, ctx.scope.accountId, new Date()),
    you: ctx.membership.userId,
  })),
  invite: ownerProcedure
    .input(ZInvite)
    .mutation(({ ctx, input }) => createInvite(ctx.db, { accountId: ctx.scope.accountId, userId: ctx.membership.userId }, input, new Date())),
  revokeInvite: ownerProcedure.input(z.object({ id: zId('mi') })).mutation(({ ctx, input }) => revokeInvite(ctx.db, ctx.scope.accountId, input.id, new Date())),
  changeRole: ownerProcedure
    .input(ZUserId.extend({ role: z.enum(MEMBER_ROLES) }))
    .mutation(({ ctx, input }) => updateMember(ctx.db, ctx.scope.accountId, input.userId, input.role)),
  remove: ownerProcedure.input(ZUserId).mutation(({ ctx, input }) => updateMember(ctx.db, ctx.scope.accountId, input.userId, null)),
});
