import { z } from 'zod';
import { EVENT_TYPES } from '../../events/record-event';
import { listEvents } from '../../webhooks/list-events';
import { router, scopedProcedure } from '../init';

export const eventsRouter = router({
  list: scopedProcedure
    .input(z.object({ type: z.enum(EVENT_TYPES).optional(), startingAfter: z.string().optional() }))
    .query(({ ctx, input }) => listEvents(ctx.db, ctx.scope, { limit: 25, type: input.type, startingAfter: input.startingAfter })),
});
