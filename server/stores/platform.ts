import type { STORE_PLATFORMS } from '@/server/db/schema';
import type { NormalizedOrder, NormalizedRefund } from '@/server/orders/types';

/**
 * The seam between the platform-neutral core of store connections (connection, deliveries, dedupe, reconciliation,
 * write-back scheduling: the files of server/stores/) and one shop platform (server/stores/<platform>/). The core
 * keeps the database, the jobs and the decisions of when; an adapter knows its platform's API, signatures and JSON.
 * README "Adding a platform" lists what an adapter provides.
 */

export type StorePlatformId = (typeof STORE_PLATFORMS)[number];

/** A shop's answer that is not about reaching it or about our keys (those are AppErrors), e.g. an unknown id. */
export class StoreRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'StoreRequestError';
  }
}

/** An order as the core sees it: the facts it decides on, and the platform's JSON for the adapter's mapping. */
export type StoreOrder = {
  id: number;
  /** When the order was placed in the shop (UTC); null when the shop did not say. */
  createdAt: Date | null;
  /** Ids of the order's refunds, each taken to a correction once. */
  refundIds: number[];
  raw: Record<string, unknown>;
};

/** The connection's settings the mapping reads (store_connections columns, changed on the store page). */
export type StoreSettings = { invoiceStatuses: readonly string[]; nipMetaKeys: readonly string[] | null; paymentMethods: Readonly<Record<string, string>> };
export type OrderDecision = { invoice: NormalizedOrder } | { skip: string; message: string };

export type RemoteWebhook = { id: number; status: string };
/** What a failed call means for the step that made it: the addressed object is gone, our key is refused, or retry. */
export type StoreFailure = 'gone' | 'keys_refused' | 'retry';
/** A delivery's envelope: the save-time ping, a signed event, or something unsigned (refused with 401). */
export type DeliveryEnvelope = { ping: true } | { webhookId: number; topic: string; signature: string } | { unsigned: true; topic: string | null };

/** One connection's calls to its shop with its credentials; failures throw AppError or StoreRequestError. */
export interface StoreApi {
  /** The API answers, the keys are valid and may manage webhooks; otherwise an AppError naming what is wrong. */
  check(): Promise<void>;
  /** One page of orders modified after `since`, in a stable order; `totalPages` of the listing. */
  ordersModifiedAfter(since: Date, page: number): Promise<{ orders: StoreOrder[]; totalPages: number }>;
  /** The shop's JSON of one refund of an order. */
  refund(orderId: number, refundId: number): Promise<unknown>;
  webhooks(): Promise<RemoteWebhook[]>;
  createWebhook(w: { name: string; topic: string; deliveryUrl: string; secret: string }): Promise<RemoteWebhook>;
  deleteWebhook(id: number): Promise<void>;
  /** A note on the order; `customerNote`: the buyer sees it. */
  addNote(orderId: number, note: string, customerNote: boolean): Promise<void>;
  /** The invoice's numbers and PDF link stored on the order, keeping the order's other data. */
  setInvoiceMeta(orderId: number, meta: { ksefNumber: string; number: string; pdfUrl: string }): Promise<void>;
}

export interface StorePlatform {
  /** store_connections.platform, and the hook path /hooks/{id}/{store}. */
  readonly id: StorePlatformId;
  /** In messages: "{name} delivers webhooks with POST." */
  readonly name: string;
  /** The webhook topics registered in the shop. */
  readonly topics: readonly string[];
  /** The 401 message for a delivery whose signature does not match (it names the platform's headers). */
  readonly signatureInvalid: string;
  /** The connect form's fields checked and trimmed into what is sealed (AppError naming the field otherwise). */
  credentials(input: Record<string, string>): Record<string, string>;
  api(home: string, credentials: Record<string, string>): StoreApi;
  envelope(headers: Headers, raw: Buffer): DeliveryEnvelope;
  signatureMatches(secret: string, raw: Buffer, signature: string): boolean;
  /** Whether a verified delivery of this topic carries an order to store; others are answered 200 and dropped. */
  carriesOrder(topic: string): boolean;
  /** The order in a stored delivery's body; null when the body is no order (reconciliation covers it). */
  orderOf(body: Record<string, unknown>): StoreOrder | null;
  /** Whether the order becomes an invoice now, and its intake shape; a skip carries the reason. Pure. */
  decideOrder(order: StoreOrder, settings: StoreSettings): OrderDecision;
  /** A refund of the order in the shape of our corrections; throws AppError when it cannot be one. Pure. */
  mapRefund(order: StoreOrder, refund: unknown): NormalizedRefund;
  classify(err: unknown): StoreFailure;
}
