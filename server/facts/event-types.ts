import type { DocumentStatus } from './document-statuses';

/**
 * The event types of spec 6.1 plus the additive `*.error` (invariant 10: every final state has an event): a
 * document's kind and its final state. The one list of them: the API's enum, OpenAPI, the dashboard and the
 * event a transition records all read it. Pure, so the dashboard can list them too.
 */
export const EVENT_TYPES = [
  'invoice.accepted',
  'invoice.rejected',
  'invoice.skipped',
  'invoice.error',
  'correction.accepted',
  'correction.rejected',
  'correction.skipped',
  'correction.error',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Beyond the spec: the event the dashboard's "send test event" signs and delivers once to one endpoint. It is
 * not an EventType: no document records it, GET /v1/events does not list it and no endpoint subscribes to it.
 */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook_endpoint.test';

/** The event a document of `kind` records on reaching `status`, or null when that status is not final. */
export function eventTypeFor(kind: 'invoice' | 'correction', status: DocumentStatus): EventType | null {
  const type = `${kind}.${status}`;
  return (EVENT_TYPES as readonly string[]).includes(type) ? (type as EventType) : null;
}
