import { z } from 'zod';
import { EVENT_TYPES } from '@/server/facts/event-types';
import { listEvents } from '@/server/events/list-events';
import { router, memberProcedure } from '@/server/trpc/init';

export const eventsRouter = router({
  list: memberProcedure
    .input(z.object({ type: z.enum(EVENT_TYPES).optional(), startingAfter: z.string().optional() }))
    .query(({ ctx, input }) => listEvents(ctx.db, ctx.scope, { limit: 25, type: input.type, startingAfter: input.startingAfter })),
});
