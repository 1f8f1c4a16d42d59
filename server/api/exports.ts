import 'server-only';
import { z } from 'zod';
import { archivePieces } from '@/server/exports/archive-stream';
import { ZPeriod } from '@/server/exports/period';
import { REGISTER_FORMATS, registerPieces } from '@/server/exports/register-stream';
import { pulledStream } from '@/server/exports/text-stream';
import type { Endpoint } from '@/server/http/route';
import { parseParams, queryObject } from '@/server/http/validate';

export const ZSalesRegisterQuery = z.object({
  period: ZPeriod.describe('Europe/Warsaw month `YYYY-MM`; documents belong to it by issue date'),
  format: z
    .enum(REGISTER_FORMATS)
    .default('csv')
    .describe('`csv` (default: UTF-8 with BOM, `;`, decimal comma, CRLF, for Excel and LibreOffice) or `xml` (JPK_V7M(3) SprzedazWiersz rows)'),
  changed_since: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Unix seconds: only rows whose KSeF number or JPK marker changed after it (a DI document KSeF has numbered since)'),
});
export const ZArchiveQuery = z.object({ period: ZSalesRegisterQuery.shape.period });

const CONTENT_TYPE = { csv: 'text/csv; charset=utf-8', xml: 'application/xml; charset=utf-8' } as const;
const attachment = (name: string) => ({ 'Content-Disposition': `attachment; filename="${name}"` });

/** GET /v1/exports/sales-register (beyond the spec): the month's sales register, streamed. */
export const salesRegister: Endpoint<z.infer<typeof ZSalesRegisterQuery>> = {
  input: ({ url }) => parseParams(ZSalesRegisterQuery, queryObject(url)),
  handle: async ({ db, scope, input }) => {
    const filter = { period: input.period, ...(input.changed_since !== undefined && { changedSince: new Date(input.changed_since * 1000) }) };
    const suffix = input.changed_since !== undefined ? `-changed-${input.changed_since}` : '';
    return {
      status: 200,
      stream: pulledStream(registerPieces(db, scope, filter, input.format)),
      contentType: CONTENT_TYPE[input.format],
      headers: attachment(`rejestr-sprzedazy-${input.period}${suffix}.${input.format}`),
    };
  },
};

/** GET /v1/exports/archive (beyond the spec): the month's FA(3) XML, UPO and PDF files and the register in one ZIP, streamed. */
export const monthlyArchive: Endpoint<z.infer<typeof ZArchiveQuery>> = {
  input: ({ url }) => parseParams(ZArchiveQuery, queryObject(url)),
  handle: async ({ db, scope, input }) => ({
    status: 200,
    stream: pulledStream(archivePieces(db, scope, { period: input.period })),
    contentType: 'application/zip',
    headers: attachment(`archiwum-${input.period}.zip`),
  }),
};
