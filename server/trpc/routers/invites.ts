import { z } from 'zod';
import { ZPassword } from '@/server/accounts/password-rules';
import { acceptInvite, previewInvite, signUpFromInvite } from '@/server/accounts/invites';
import { hashPassword } from '@/server/security/passwords';
import { publicProcedure, router, sessionProcedure } from '@/server/trpc/init';

const ZToken = z.object({ token: z.string().min(1).max(100) });

/** The invitation page: what the link offers, then accepting it as a new user (a password) or as the signed-in one. */
export const invitesRouter = router({
  preview: publicProcedure.input(ZToken).query(({ ctx, input }) => previewInvite(ctx.db, input.token, new Date())),
  /** The page signs in through next-auth afterwards, with the invitation's address and this password. */
  signUp: publicProcedure
    .input(ZToken.extend({ password: ZPassword }))
    .mutation(async ({ ctx, input }) => signUpFromInvite(ctx.db, input.token, await hashPassword(input.password), new Date())),
  accept: sessionProcedure.input(ZToken).mutation(({ ctx, input }) => acceptInvite(ctx.db, input.token, { id: ctx.userId }, new Date())),
});
