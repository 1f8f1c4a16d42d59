import { asc, and, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { documents, events } from '@/server/db/schema';
import type { EventType } from '@/server/events/event-types';
import type { DocumentRow } from './document-row';
import { selectDocuments } from './load-document';
import { serializeDocument } from './serialize-document';
import { newId } from '@/server/ids';
import { enqueueDeliveries } from '@/server/webhooks/enqueue-deliveries';

/**
 * Records the event of a final state and its webhook deliveries in the caller's transaction (invariant 3). The
 * body is serialised once here and stored: deliveries sign and send exactly these bytes.
 */
export async function recordDocumentEvent(tx: DbOrTx, doc: DocumentRow, type: EventType): Promise<string> {
  const corrections =
    doc.kind === 'invoice' ? await selectDocuments(tx, and(eq(documents.invoiceId, doc.id), eq(documents.kind, 'correction')), asc(documents.seq)) : [];
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
  await tx.insert(events).values({ id, accountId: doc.accountId, mode: doc.mode, type, documentId: doc.id, body, createdAt });
  await enqueueDeliveries(tx, { id, accountId: doc.accountId, mode: doc.mode, type });
  return id;
}
