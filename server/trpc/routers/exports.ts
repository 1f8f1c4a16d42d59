import { z } from 'zod';
import { monthSummary } from '@/server/exports/month-summary';
import { ZPeriod } from '@/server/exports/period';
import { router, memberProcedure } from '@/server/trpc/init';

export const exportsRouter = router({
  summary: memberProcedure.input(z.object({ period: ZPeriod })).query(({ ctx, input }) => monthSummary(ctx.db, ctx.scope, input.period)),
});
