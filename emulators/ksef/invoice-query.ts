import { z } from 'zod';
import { json, readJson, type Ctx } from './context';
import { fail, type Reply } from './kit';
import type { InvoiceRecord, Session } from './state';
import { requireBearer } from './tokens';

const ZQuery = z.object({
  subjectType: z.enum(['Subject1', 'Subject2', 'Subject3', 'SubjectAuthorized']),
  dateRange: z.object({
    dateType: z.enum(['Issue', 'Invoicing', 'PermanentStorage']),
    from: z.iso.datetime({ offset: true, local: true }),
    to: z.iso.datetime({ offset: true, local: true }).nullable().optional(),
  }),
  ksefNumber: z.string().nullable().optional(),
  invoiceNumber: z.string().max(256).nullable().optional(),
  sellerNip: z.string().nullable().optional(),
});

/** KSeF's cap on one filter set (README §10): past it the answer is truncated and the caller narrows the range. */
const MAX_RECORDS = 10_000;
const DAY_MS = 86_400_000;

type Found = { session: Session; invoice: InvoiceRecord & { ksefNumber: string; acquisitionDate: Date } };

function dateOf(inv: Found['invoice'], type: 'Issue' | 'Invoicing' | 'PermanentStorage'): number {
  if (type === 'Issue') return Date.parse(`${inv.issueDate ?? inv.invoicingDate.toISOString().slice(0, 10)}T00:00:00Z`);
  return (type === 'Invoicing' ? inv.invoicingDate : inv.acquisitionDate).getTime();
}

const metadata = ({ session, invoice: inv }: Found) => ({
  ksefNumber: inv.ksefNumber,
  invoiceNumber: inv.invoiceNumber ?? '',
  issueDate: inv.issueDate ?? inv.invoicingDate.toISOString().slice(0, 10),
  invoicingDate: inv.invoicingDate.toISOString(),
  acquisitionDate: inv.acquisitionDate.toISOString(),
  permanentStorageDate: inv.acquisitionDate.toISOString(),
  seller: { nip: session.nip },
  buyer: { identifier: { type: 'None' } },
  netAmount: 0,
  grossAmount: 0,
  vatAmount: 0,
  currency: 'PLN',
  invoicingMode: inv.offline ? 'Offline' : 'Online',
  invoiceType: inv.kind === 'KOR' ? 'Kor' : 'Vat',
  formCode: { systemCode: 'FA (3)', schemaVersion: '1-0E', value: 'FA' },
  isSelfInvoicing: false,
  hasAttachment: false,
  invoiceHash: inv.invoiceHash,
});

/**
 * POST /invoices/query/metadata (OpenAPI "Pobranie listy metadanych faktur"): the context's own accepted invoices as
 * seller (Subject1), filtered by a date range of at most 3 months, KSeF or invoice number; paged by pageOffset and
 * pageSize (10–250). Amounts and the buyer are not kept by the emulator and come back as zero / None: the relay
 * matches by number and hash only.
 */
export function queryMetadata(ctx: Ctx): Reply {
  const bearer = requireBearer(ctx.state, ctx.headers.authorization, 'access');
  const q = readJson(ctx, ZQuery);
  const pageSize = Number(ctx.query.get('pageSize') ?? 10);
  const pageOffset = Number(ctx.query.get('pageOffset') ?? 0);
  if (!Number.isInteger(pageSize) || pageSize < 10 || pageSize > 250) throw fail.validation(['pageSize: wymagana liczba 10–250.']);
  if (!Number.isInteger(pageOffset) || pageOffset < 0) throw fail.validation(['pageOffset: wymagana liczba ≥ 0.']);
  const from = Date.parse(q.dateRange.from);
  const to = q.dateRange.to ? Date.parse(q.dateRange.to) : Date.now();
  if (to - from > 92 * DAY_MS) throw fail.validation(['dateRange: maksymalny zakres to 3 miesiące.']);
  const sort = ctx.query.get('sortOrder') === 'Desc' ? -1 : 1;
  const all = [...ctx.state.byKsefNumber.values()]
    .filter((f): f is Found => Boolean(f.invoice.ksefNumber && f.invoice.acquisitionDate) && q.subjectType === 'Subject1' && f.session.nip === bearer.nip)
    .filter((f) => (!q.ksefNumber || f.invoice.ksefNumber === q.ksefNumber) && (!q.invoiceNumber || f.invoice.invoiceNumber === q.invoiceNumber))
    .filter((f) => !q.sellerNip || f.session.nip === q.sellerNip)
    .filter((f) => {
      const at = dateOf(f.invoice, q.dateRange.dateType);
      return at >= from && at <= to;
    })
    .sort((a, b) => sort * (dateOf(a.invoice, q.dateRange.dateType) - dateOf(b.invoice, q.dateRange.dateType)));
  const capped = all.slice(0, MAX_RECORDS);
  const page = capped.slice(pageOffset * pageSize, (pageOffset + 1) * pageSize);
  return json(200, {
    hasMore: (pageOffset + 1) * pageSize < all.length,
    isTruncated: all.length > MAX_RECORDS && (pageOffset + 1) * pageSize >= MAX_RECORDS,
    permanentStorageHwmDate: q.dateRange.dateType === 'PermanentStorage' ? new Date(Math.min(to, Date.now())).toISOString() : null,
    invoices: page.map(metadata),
  });
}
