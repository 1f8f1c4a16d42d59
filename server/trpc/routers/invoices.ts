import { z } from 'zod';
import { may } from '@/server/accounts/permissions';
import { getCorrectionForm } from '@/server/corrections/correction-form';
import { listDocumentEvents } from '@/server/events/list-document-events';
import { listDocumentTimeline } from '@/server/documents/document-timeline';
import { searchDocuments, ZSearchDocuments } from '@/server/documents/search-documents';
import { createCorrectionDocument } from '@/server/corrections/create-correction';
import { correctionsOf, getDocument } from '@/server/documents/get-document';
import { isRetryable, retryDocument } from '@/server/documents/retry-document';
import { serializeDocument } from '@/server/documents/serialize-document';
import { parseRefundInput } from '@/server/orders/order-schema';
import { ZNormalizedOrder, ZNormalizedRefund } from '@/server/orders/types';
import { warningsOfDocument } from '@/server/ksef-connection/ksef-warnings';
import { listDeliveries } from '@/server/webhooks/list-deliveries';
import { zId } from '@/server/ids';
import { memberProcedure, ownerProcedure, router } from '@/server/trpc/init';

const ZDocumentId = z.object({ id: zId('inv', 'cor') });

export const invoicesRouter = router({
  search: memberProcedure.input(ZSearchDocuments).query(({ ctx, input }) => searchDocuments(ctx.db, ctx.scope, input)),
  /** Everything the detail page shows: the API object, the stored input, timeline, events and deliveries. */
  detail: memberProcedure.input(ZDocumentId).query(async ({ ctx, input }) => {
    const doc = await getDocument(ctx.db, ctx.scope, input.id);
    const corrections = doc.kind === 'invoice' ? ((await correctionsOf(ctx.db, ctx.scope, [doc.id])).get(doc.id) ?? []) : [];
    // the webhook log names the owner's endpoints and their answers: not the accountant's (server/accounts/permissions.ts)
    const mayManage = may(ctx.membership.role, 'manage');
    const [timeline, deliveries, events, ksefWarnings] = await Promise.all([
      listDocumentTimeline(ctx.db, doc, { withDeliveries: mayManage }),
      mayManage ? listDeliveries(ctx.db, ctx.scope, { documentId: doc.id, limit: 50 }) : null,
      listDocumentEvents(ctx.db, ctx.scope, doc.id),
      warningsOfDocument(ctx.db, doc),
    ]);
    const input_ = doc.kind === 'invoice' ? { order: ZNormalizedOrder.parse(doc.input) } : { refund: ZNormalizedRefund.parse(doc.input) };
    return {
      document: serializeDocument(doc, corrections),
      kind: doc.kind,
      totalGrossGrosze: doc.totalGrossGrosze,
      exchangeRate: doc.exchangeRate as { rate: string; date: string; table: string } | null,
      mailStatus: doc.mailStatus,
      warnings: doc.warnings,
      ksefWarnings: ksefWarnings.map((w) => ({ at: w.at.toISOString(), method: w.method, path: w.path, code: w.code, message: w.message })),
      offline: doc.offlineMode ? { deadline: doc.offlineDeadline?.toISOString() ?? null } : null,
      hasXml: doc.fa3Xml !== null,
      hasUpo: doc.upoXml !== null,
      hasPdf: doc.pdfFileId !== null,
      retryable: isRetryable(doc),
      ...input_,
      timeline,
      events,
      deliveries: deliveries?.data ?? null,
    };
  }),
  /** The dashboard's retry of a document in error (or skipped for a fixable cause), as POST /v1/invoices/{id}/retry. */
  retry: ownerProcedure.input(ZDocumentId).mutation(async ({ ctx, input }) => {
    const doc = await retryDocument(ctx.db, ctx.scope, input.id);
    return { id: doc.id, status: doc.status };
  }),
  correctionForm: ownerProcedure.input(z.object({ invoiceId: z.string() })).query(({ ctx, input }) => getCorrectionForm(ctx.db, ctx.scope, input.invoiceId)),
  /** The refund in the /v1 shape (spec 2.5), parsed by the same schema as POST /v1/invoices/{id}/corrections. */
  createCorrection: ownerProcedure.input(z.object({ invoiceId: z.string(), refund: z.unknown() })).mutation(async ({ ctx, input }) => {
    const { document, created } = await createCorrectionDocument(ctx.db, ctx.scope, input.invoiceId, parseRefundInput(input.refund));
    return { id: document.id, created };
  }),
});
