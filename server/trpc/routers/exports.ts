import { z } from 'zod';
import { monthSummary } from '@/server/exports/month-summary';
import { ZPeriod } from '@/server/exports/period';
import { router, scopedProcedure } from '@/server/trpc/init';

export const exportsRouter = router({
  summary: scopedProcedure.input(z.object({ period: ZPeriod })).query(({ ctx, input }) => monthSummary(ctx.db, ctx.scope, input.period)),
});
