/**
 * The document statuses of spec §3, in the order the dashboard lists them. Pure (no drizzle), so the browser bundle
 * can read them; the database enum (server/db/schema/enums.ts), the API's schemas (so OpenAPI) and the SDK
 * (sdk/src/facts.ts, generated) are made from this list.
 */
export const DOCUMENT_STATUSES = ['pending', 'queued', 'sending', 'accepted', 'rejected', 'skipped', 'waiting_for_plan_limit', 'error'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
/** The document kinds (pure for the same reason; the enum document_kind is made from it). */
export const DOCUMENT_KINDS = ['invoice', 'correction'] as const;

/** Statuses whose document is still on its way to KSeF: the queue depth, and what the dashboard keeps polling. */
export const IN_FLIGHT_STATUSES = ['pending', 'queued', 'sending'] as const satisfies readonly DocumentStatus[];

/** Final states of spec §3: nothing changes a document after them (corrections are new documents). */
export const FINAL_STATUSES = ['accepted', 'rejected', 'skipped', 'error'] as const satisfies readonly DocumentStatus[];

export function isInFlight(status: DocumentStatus): boolean {
  return (IN_FLIGHT_STATUSES as readonly DocumentStatus[]).includes(status);
}
