import { signUp, ZSignUp } from '@/server/accounts/sign-up';
import { publicProcedure, router } from '@/server/trpc/init';

export const authRouter = router({
  /** Returns the test key for its one-time display; the page signs in through next-auth afterwards. */
  signUp: publicProcedure.input(ZSignUp).mutation(({ ctx, input }) => signUp(ctx.db, input)),
});
