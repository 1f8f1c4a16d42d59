import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { addDeflated } from './deflated-entry';
import { csvLine, UTF8_BOM } from './register-csv';
import { archiveDocuments, type RegisterFilter } from './register-query';
import { registerCsv, registerRows } from './register-stream';
import { withZip64End } from './zip64-end';

/** A document number as a file name: `FV/2026/02/1` → `FV-2026-02-1` (no folders, nothing a file system refuses). */
export const safeFileName = (number: string): string => number.replace(/[^0-9A-Za-z._-]+/g, '-').replace(/^[.-]+/, '') || 'document';

export const MANIFEST_HEADER = ['Numer', 'Id dokumentu', 'Brakuje'] as const;

/**
 * The month's archive as one ZIP, made while it is read: `<period>/<number>.xml` (FA(3) as sent), `.upo.xml`
 * (KSeF's UPO) and `.pdf` per document in register order, then `<period>/rejestr-<period>.csv` (the register, as
 * GET /v1/exports/sales-register gives it) and `<period>/manifest.csv` listing every document whose UPO or PDF is
 * not there yet (an offline document before KSeF numbered it has no UPO; a PDF may still be rendering). Nothing is
 * rendered here: the web process stays out of PDF work (DESIGN). XML is deflated; PDFs are stored, being deflated
 * inside already.
 */
export async function* archivePieces(db: Db, scope: Scope, filter: RegisterFilter): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  let written = 0;
  let entries = 0;
  let failure: Error | null = null;
  const zip = new Zip((err, chunk, final) => {
    if (err) failure = err;
    else out.push(final ? withZip64End(chunk, written, entries) : chunk);
    written += chunk.length;
  });
  const drain = function* () {
    if (failure) throw failure;
    yield* out.splice(0);
  };
  const encoder = new TextEncoder();
  const dir = filter.period;
  const used = new Set<string>();
  const unique = (name: string, id: string) => {
    const n = used.has(name) ? `${name}_${id}` : name;
    used.add(n);
    return n;
  };
  const deflated = (name: string, data: string) => {
    entries++;
    addDeflated(zip, name, encoder.encode(data));
  };
  const missing: string[] = [];

  for await (const doc of archiveDocuments(db, scope, filter)) {
    const base = unique(safeFileName(doc.number), doc.id);
    deflated(`${dir}/${base}.xml`, doc.fa3Xml);
    if (doc.upoXml) deflated(`${dir}/${base}.upo.xml`, doc.upoXml);
    if (doc.pdf) {
      const pdf = new ZipPassThrough(`${dir}/${base}.pdf`);
      entries++;
      zip.add(pdf);
      pdf.push(doc.pdf, true);
    }
    const lacks = [!doc.upoXml && 'UPO', !doc.pdf && 'PDF'].filter(Boolean).join(', ');
    if (lacks) missing.push(csvLine([doc.number, doc.id, lacks]));
    yield* drain();
  }

  const register = new ZipDeflate(`${dir}/rejestr-${dir}.csv`, { level: 6 });
  entries++;
  zip.add(register);
  for await (const piece of registerCsv(registerRows(db, scope, filter))) {
    register.push(encoder.encode(piece));
    yield* drain();
  }
  register.push(new Uint8Array(0), true);

  deflated(`${dir}/manifest.csv`, UTF8_BOM + csvLine(MANIFEST_HEADER) + missing.join(''));
  zip.end();
  yield* drain();
}
