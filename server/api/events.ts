import 'server-only';
import { z } from 'zod';
import { EVENT_TYPES } from '@/server/facts/event-types';
import { listEvents as listScopeEvents } from '@/server/events/list-events';
import { listEnvelope, ZListQuery } from '@/server/http/list';
import type { Endpoint } from '@/server/http/route';
import { parseParams, queryObject } from '@/server/http/validate';

export const ZListEventsQuery = ZListQuery.extend({ type: z.enum(EVENT_TYPES).optional() });

/** GET /v1/events (spec 4.11): the events of the key's account and mode, newest first. */
export const listEvents: Endpoint<z.infer<typeof ZListEventsQuery>> = {
  input: ({ url }) => parseParams(ZListEventsQuery, queryObject(url)),
  handle: async ({ db, scope, input }) => {
    const page = await listScopeEvents(db, scope, { limit: input.limit, startingAfter: input.starting_after, type: input.type });
    return { status: 200, body: listEnvelope('/v1/events', page, (event) => event) };
  },
};
