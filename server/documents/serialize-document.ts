import { config } from '@/server/config';
import type { StoredError } from '@/server/db/schema';
import { withDocUrl } from '@/server/errors';
import { formatGrosze } from '@/server/orders/money';
import type { DocumentRow } from './document-row';
import { serializeOffline } from './offline';

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

export const pdfUrl = (token: string) => `${config().PUBLIC_BASE_URL}/d/${token}`;

function serializeCommon(doc: DocumentRow) {
  return {
    id: doc.id,
    object: doc.kind,
    livemode: doc.mode === 'live',
    status: doc.status,
    order: { external_id: doc.orderExternalId, number: doc.orderNumber },
    number: doc.number,
    ksef_number: doc.ksefNumber,
    ksef_environment: doc.ksefEnvironment,
    issue_date: doc.issueDate,
    currency: doc.currency,
    total_gross: doc.totalGrossGrosze === null ? null : formatGrosze(doc.totalGrossGrosze),
    buyer_nip: doc.buyerNip,
    // the token is made at acceptance (or at an offline issue's PDF); the link renders the PDF if it is not stored yet
    pdf_url: doc.pdfToken ? pdfUrl(doc.pdfToken) : null,
    last_error: withDocUrl(doc.lastError as StoredError | null),
    offline: serializeOffline(doc),
    created: unix(doc.createdAt),
    updated: unix(doc.updatedAt),
  };
}

const serializeCorrection = (doc: DocumentRow) => ({ ...serializeCommon(doc), invoice: doc.invoiceId, refund: { external_id: doc.refundExternalId } });

/**
 * The only producer of invoice and correction JSON (spec 2.1, 2.2): API responses, `event.data.object` and
 * webhooks all use it. An invoice carries its corrections, oldest first.
 */
export function serializeDocument(doc: DocumentRow, corrections: readonly DocumentRow[] = []) {
  if (doc.kind === 'correction') return serializeCorrection(doc);
  return { ...serializeCommon(doc), corrections: corrections.map(serializeCorrection) };
}

export type SerializedDocument = ReturnType<typeof serializeDocument>;
