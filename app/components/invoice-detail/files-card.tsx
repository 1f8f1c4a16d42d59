'use client';
import { useI18n } from '../i18n';
import type { InvoiceDetailData } from './types';

/** Downloads of the PDF, FA(3) XML and UPO as each becomes available, and the PDF's preview. */
export function FilesCard({ data }: { data: InvoiceDetailData }) {
  const { t } = useI18n();
  const d = t.detail;
  const files = `/dashboard/files/${data.document.id}`;
  const download = (present: boolean, kind: 'pdf' | 'xml' | 'upo') => (
    <li>
      {present ? (
        <a href={`${files}/${kind}`} download>
          {d[kind]}
        </a>
      ) : (
        <span className="muted">{d[kind]}</span>
      )}
    </li>
  );
  return (
    <section className="card" aria-labelledby="files-h">
      <h2 id="files-h">{d.files}</h2>
      <ul className="inline-list">
        {download(data.hasPdf, 'pdf')}
        {download(data.hasXml, 'xml')}
        {download(data.hasUpo, 'upo')}
      </ul>
      {data.hasPdf ? <iframe className="pdf-preview" title={d.preview} src={`${files}/pdf?inline=1`} /> : <p className="muted">{d.pdfPending}</p>}
    </section>
  );
}
