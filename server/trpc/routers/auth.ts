import { previewPasswordReset, requestPasswordReset, resetPassword, ZResetPassword, ZResetRequest } from '@/server/accounts/password-reset';
import { signUp, ZSignUp } from '@/server/accounts/sign-up';
import { hashPassword } from '@/server/security/passwords';
import { publicProcedure, router } from '@/server/trpc/init';

export const authRouter = router({
  /** Returns the test key for its one-time display; the page signs in through next-auth afterwards. */
  signUp: publicProcedure.input(ZSignUp).mutation(({ ctx, input }) => signUp(ctx.db, input)),
  /** Answers the same for every address (known, unknown, over its limit): the answer reveals no account. */
  requestPasswordReset: publicProcedure.input(ZResetRequest).mutation(async ({ ctx, input }) => {
    await requestPasswordReset(ctx.db, input, new Date());
    return { ok: true as const };
  }),
  previewPasswordReset: publicProcedure
    .input(ZResetPassword.pick({ token: true }))
    .query(({ ctx, input }) => previewPasswordReset(ctx.db, input.token, new Date())),
  /** The page signs in through next-auth afterwards, with the link's address and the new password. */
  resetPassword: publicProcedure
    .input(ZResetPassword)
    .mutation(async ({ ctx, input }) => resetPassword(ctx.db, input.token, await hashPassword(input.password), new Date())),
});
