import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { documentTransitions } from '@/server/db/schema';
import { getDocument } from './get-document';

/** Every status change of a document of the scope, oldest first, with the error each carried. */
export async function listDocumentTimeline(db: DbOrTx, scope: Scope, documentId: string) {
  await getDocument(db, scope, documentId); // resource_missing for another scope's id
  return db
    .select({ from: documentTransitions.fromStatus, to: documentTransitions.toStatus, error: documentTransitions.error, at: documentTransitions.at })
    .from(documentTransitions)
    .where(eq(documentTransitions.documentId, documentId))
    .orderBy(asc(documentTransitions.id));
}
