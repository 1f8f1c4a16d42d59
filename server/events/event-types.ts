/** The event types of spec 6.1: a document's kind and its final state. Pure, so the dashboard can list them too. */
export const EVENT_TYPES = [
  'invoice.accepted',
  'invoice.rejected',
  'invoice.skipped',
  'correction.accepted',
  'correction.rejected',
  'correction.skipped',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
