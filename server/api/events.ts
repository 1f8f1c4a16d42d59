import { z } from 'zod';
import { EVENT_TYPES } from '../events/record-event';
import type { Endpoint } from '../http/route';
import { parseParams, queryObject } from '../http/validate';
import { listEvents as listScopeEvents } from '../webhooks/list-events';

const ZListEventsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  starting_after: z.string().min(1).optional(),
  type: z.enum(EVENT_TYPES).optional(),
});

/** GET /v1/events (spec 4.11): the events of the key's account and mode, newest first. */
export const listEvents: Endpoint<z.infer<typeof ZListEventsQuery>> = {
  input: ({ url }) => parseParams(ZListEventsQuery, queryObject(url)),
  handle: async ({ db, scope, input }) => {
    const page = await listScopeEvents(db, scope, { limit: input.limit, startingAfter: input.starting_after, type: input.type });
    return { status: 200, body: { object: 'list', url: '/v1/events', has_more: page.hasMore, data: page.events } };
  },
};
