import { z } from 'zod';
import { json, readJson, type Ctx } from './context';
import type { Reply } from './kit';

/**
 * The Ministry's KSeF status service ("Latarnia", api-latarnia-test.ksef.mf.gov.pl; public, no authorisation): GET
 * /status answers the system's status and the messages of that status, GET /messages every published message. Not
 * in the KSeF OpenAPI of ../shared/ksef: the shape follows the published clients (docs/outage-modes.md). A test sets
 * the answer through PUT /control/lighthouse.
 */
export const LIGHTHOUSE_STATUSES = ['AVAILABLE', 'MAINTENANCE', 'FAILURE', 'TOTAL_FAILURE'] as const;

const ZMessage = z.object({
  id: z.string().min(1),
  status: z.enum(LIGHTHOUSE_STATUSES),
  title: z.string(),
  text: z.string().optional(),
  start: z.iso.datetime(),
  end: z.iso.datetime().nullable().optional(),
});
export type LighthouseMessage = z.infer<typeof ZMessage>;
export type LighthouseState = { status: (typeof LIGHTHOUSE_STATUSES)[number]; messages: LighthouseMessage[] };

const ZLighthouse = z.object({ status: z.enum(LIGHTHOUSE_STATUSES), messages: z.array(ZMessage).optional() });

export const initialLighthouse = (): LighthouseState => ({ status: 'AVAILABLE', messages: [] });

/** GET /latarnia/status: the status, with the messages of a status other than AVAILABLE. */
export function lighthouseStatus(ctx: Ctx): Reply {
  const l = ctx.state.lighthouse;
  return json(200, l.status === 'AVAILABLE' ? { status: l.status } : { status: l.status, messages: l.messages.filter((m) => m.status === l.status) });
}

export const lighthouseMessages = (ctx: Ctx): Reply => json(200, ctx.state.lighthouse.messages);

/** PUT /control/lighthouse `{ status, messages? }`: what the status service answers from now on; messages accumulate. */
export function putLighthouse(ctx: Ctx): Reply {
  const body = readJson(ctx, ZLighthouse);
  ctx.state.lighthouse = { status: body.status, messages: [...ctx.state.lighthouse.messages, ...(body.messages ?? [])] };
  return json(200, { status: body.status, messages: ctx.state.lighthouse.messages.length });
}
