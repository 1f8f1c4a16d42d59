import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { csvLine, UTF8_BOM } from './register-csv';
import { archiveDocuments, type RegisterFilter } from './register-query';
import { registerCsv, registerRows } from './register-stream';
import { ZipWriter } from './zip-writer';

/** A document number as a file name: `FV/2026/02/1` → `FV-2026-02-1` (no folders, nothing a file system refuses). */
export const safeFileName = (number: string): string => number.replace(/[^0-9A-Za-z._-]+/g, '-').replace(/^[.-]+/, '') || 'document';

export const MANIFEST_HEADER = ['Numer', 'Id dokumentu', 'Brakuje'] as const;

/**
 * The month's archive as one ZIP, made while it is read: `<period>/<number>.xml` (FA(3) as sent), `.upo.xml`
 * (KSeF's UPO) and `.pdf` per document in register order, then `<period>/rejestr-<period>.csv` (the register, as
 * GET /v1/exports/sales-register gives it) and `<period>/manifest.csv` listing every document whose UPO or PDF is
 * not there yet (an offline document before KSeF numbered it has no UPO; a PDF may still be rendering). Nothing is
 * rendered here: the web process stays out of PDF work (DESIGN). XML and CSV are deflated; PDFs are stored, being
 * deflated inside already. The names of the month's documents are kept to make a repeated one unique (tens of bytes
 * each), and the manifest's lines, one per incomplete document.
 */
export async function* archivePieces(db: Db, scope: Scope, filter: RegisterFilter, now = new Date()): AsyncGenerator<Uint8Array> {
  const zip = new ZipWriter(now);
  const encoder = new TextEncoder();
  const dir = filter.period;
  const used = new Set<string>();
  const unique = (name: string, id: string) => {
    const n = used.has(name) ? `${name}_${id}` : name;
    used.add(n);
    return n;
  };
  const missing: string[] = [];

  for await (const doc of archiveDocuments(db, scope, filter)) {
    const base = unique(safeFileName(doc.number), doc.id);
    yield* zip.file(`${dir}/${base}.xml`, encoder.encode(doc.fa3Xml), true);
    if (doc.upoXml) yield* zip.file(`${dir}/${base}.upo.xml`, encoder.encode(doc.upoXml), true);
    if (doc.pdf) yield* zip.file(`${dir}/${base}.pdf`, doc.pdf, false);
    const lacks = [!doc.upoXml && 'UPO', !doc.pdf && 'PDF'].filter(Boolean).join(', ');
    if (lacks) missing.push(csvLine([doc.number, doc.id, lacks]));
  }

  const register = zip.stream(`${dir}/rejestr-${dir}.csv`);
  for await (const piece of registerCsv(registerRows(db, scope, filter))) yield* register.push(encoder.encode(piece));
  yield* register.end();
  yield* zip.file(`${dir}/manifest.csv`, encoder.encode(UTF8_BOM + csvLine(MANIFEST_HEADER) + missing.join('')), true);
  yield* zip.end();
}
