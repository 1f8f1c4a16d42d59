import type { DbOrTx } from '@/server/db/client';
import { events } from '@/server/db/schema';
import type { EventType } from '@/server/facts/event-types';
import { newId } from '@/server/ids';
import { enqueueDeliveries } from '@/server/webhooks/enqueue-deliveries';
import type { DocumentRow } from './document-row';
import { serializeDocument } from './serialize-document';

/**
 * Records the event of a final state and its webhook deliveries in the caller's transaction (invariant 3). The
 * body is serialised once here and stored: deliveries sign and send exactly these bytes. `corrections`: an
 * invoice's corrections in creation order, which its body lists.
 */
export async function recordDocumentEvent(tx: DbOrTx, doc: DocumentRow, type: EventType, corrections: readonly DocumentRow[]): Promise<string> {
  const id = newId('evt');
  const createdAt = new Date();
  const body = JSON.stringify({
    id,
    object: 'event',
    type,
    livemode: doc.mode === 'live',
    created: Math.floor(createdAt.getTime() / 1000),
    data: { object: serializeDocument(doc, corrections) },
  });
  const recorded = tx.insert(events).values({ id, accountId: doc.accountId, mode: doc.mode, type, documentId: doc.id, body, createdAt }).getSQL();
  await enqueueDeliveries(tx, { id, accountId: doc.accountId, mode: doc.mode, type }, recorded);
  return id;
}
