import { z } from 'zod';
import { DOCUMENT_KINDS, DOCUMENT_STATUSES } from '@/server/facts/document-statuses';

/**
 * What the dashboard's document list selects and how it is sorted: one object drives the table, its totals and the
 * CSV export. Pure (zod only), so the page's search params parse with the same rules in the browser.
 */
const ZIsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const ZDocumentFilters = z.object({
  status: z.enum(DOCUMENT_STATUSES).optional(),
  kind: z.enum(DOCUMENT_KINDS).optional(),
  query: z.string().trim().max(100).optional(),
  /** Issue dates (Warsaw), both inclusive; a document not numbered yet has none and drops out of a date range. */
  from: ZIsoDate.optional(),
  to: ZIsoDate.optional(),
});
export type DocumentFilters = z.infer<typeof ZDocumentFilters>;

export const DOCUMENT_SORTS = ['created', 'date', 'number'] as const;
export const ZDocumentSort = z.object({ sort: z.enum(DOCUMENT_SORTS).default('created'), dir: z.enum(['asc', 'desc']).default('desc') });
export type DocumentSort = z.infer<typeof ZDocumentSort>;
