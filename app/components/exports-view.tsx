'use client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useI18n } from './i18n';
import { useTRPC } from './trpc';

/** The current Warsaw month as `YYYY-MM`. */
const thisMonth = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Warsaw', year: 'numeric', month: '2-digit' }).format(new Date());
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

type Progress = { state: 'idle' } | { state: 'running'; bytes: number } | { state: 'done'; bytes: number } | { state: 'failed' };

/**
 * The month's register and archive for the accountant. The archive is read through fetch so its progress can be
 * shown: bytes received against the month's stored bytes (tRPC exports.summary; the ZIP deflates the XML, so it
 * ends below them), then handed to the browser as a file.
 */
export function ExportsView() {
  const { t } = useI18n();
  const x = t.exports;
  const trpc = useTRPC();
  const [period, setPeriod] = useState(thisMonth);
  const [changedSince, setChangedSince] = useState('');
  const [progress, setProgress] = useState<Progress>({ state: 'idle' });
  const { data: summary } = useQuery(trpc.exports.summary.queryOptions({ period }));
  const registerUrl = (format: 'csv' | 'xml') => `/dashboard/exports/sales-register?period=${period}&format=${format}`;
  const archiveUrl = `/dashboard/exports/archive?period=${period}`;
  const since = changedSince ? Math.floor(new Date(changedSince).getTime() / 1000) : null;

  async function downloadArchive() {
    setProgress({ state: 'running', bytes: 0 });
    try {
      const res = await fetch(archiveUrl);
      if (!res.ok || !res.body) throw new Error(String(res.status));
      const reader = res.body.getReader();
      const parts: Uint8Array[] = [];
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        bytes += value.length;
        setProgress({ state: 'running', bytes });
      }
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob(parts as BlobPart[], { type: 'application/zip' }));
      link.download = `archiwum-${period}.zip`;
      link.click();
      URL.revokeObjectURL(link.href);
      setProgress({ state: 'done', bytes });
    } catch {
      setProgress({ state: 'failed' });
    }
  }

  const expected = summary?.storedBytes ?? 0;
  return (
    <>
      <h1>{x.title}</h1>
      <p className="muted">{x.intro}</p>
      <div className="filters">
        <div className="field">
          <label htmlFor="export-period">{x.period}</label>
          <input id="export-period" type="month" value={period} onChange={(e) => e.target.value && setPeriod(e.target.value)} />
        </div>
      </div>
      <section className="card" aria-labelledby="export-register-h">
        <h2 id="export-register-h">{x.register}</h2>
        <p>
          {x.summary}: <strong>{summary ? summary.documents : '…'}</strong>
          {summary && (summary.withoutUpo > 0 || summary.withoutPdf > 0)
            ? ` (${summary.withoutUpo} ${x.withoutUpo}, ${summary.withoutPdf} ${x.withoutPdf})`
            : null}
        </p>
        <p>
          <a href={registerUrl('csv')} download>
            {x.csv}
          </a>
          {' · '}
          <a href={registerUrl('xml')} download>
            {x.xml}
          </a>
        </p>
        <div className="field">
          <label htmlFor="export-changed-since">{x.changedSince}</label>
          <input id="export-changed-since" type="datetime-local" value={changedSince} onChange={(e) => setChangedSince(e.target.value)} />
          <p className="muted">{x.changedSinceHelp}</p>
        </div>
        {since !== null ? (
          <p>
            <a href={`${registerUrl('csv')}&changed_since=${since}`} download>
              {x.changedLink}
            </a>
          </p>
        ) : null}
      </section>
      <section className="card" aria-labelledby="export-archive-h">
        <h2 id="export-archive-h">{x.archive}</h2>
        <p className="muted">{x.archiveHelp}</p>
        <p>
          <button type="button" onClick={() => void downloadArchive()} disabled={progress.state === 'running' || summary?.documents === 0}>
            {x.download}
          </button>{' '}
          <a href={archiveUrl} download>
            {x.direct}
          </a>
        </p>
        {progress.state === 'running' || progress.state === 'done' ? (
          <p>
            <progress
              aria-label={x.progress}
              max={1}
              value={progress.state === 'done' ? 1 : expected > 0 ? Math.min(progress.bytes / expected, 0.99) : undefined}
            />{' '}
            {progress.state === 'done' ? x.done : x.progress}: {mb(progress.bytes)} MB
            {expected > 0 && progress.state === 'running' ? ` / ~${mb(expected)} MB` : ''}
          </p>
        ) : null}
        {progress.state === 'failed' ? <p role="alert">{x.failed}</p> : null}
      </section>
    </>
  );
}
